import type { OpsContext } from '../ops-context';
import { NotFoundError } from '../ops-errors';
import { findJob } from './job-lookup';

export interface JobRecord {
  id: string;
  kind: string;
  queue: string;
  state: string;
  canceled: boolean;
  data: unknown;
  progress: unknown;
  attempts: { made: number; started: number; allowed: number; stalled: number };
  failedReason?: string;
  stacktrace: string[];
  returnvalue: unknown;
  processedBy?: string;
  timestamps: { created: string; firstStarted?: string; lastStarted?: string; finished?: string; delayMs: number };
  logs: string[];
}

const iso = (ms: number | undefined | null) =>
  ms === undefined || ms === null ? undefined : new Date(ms).toISOString();

export async function jobRecord(ctx: OpsContext, id: string): Promise<JobRecord> {
  const found = await findJob(ctx, id);
  if (found === null) throw new NotFoundError(`no job '${id}' in any queue (removed, expired or never created)`);
  const { kind, job } = found;
  const [state, canceled, { logs }] = await Promise.all([
    job.getState(),
    ctx.cancellations.isCanceled(job.id!),
    ctx.queues[kind].getJobLogs(job.id!, 0, -1, true),
  ]);
  return {
    id: job.id!,
    kind,
    queue: job.queueName,
    state,
    canceled,
    data: job.data,
    progress: job.progress,
    attempts: {
      made: job.attemptsMade,
      started: job.attemptsStarted,
      allowed: job.opts.attempts ?? 1,
      stalled: job.stalledCounter,
    },
    ...(job.failedReason ? { failedReason: job.failedReason } : {}),
    stacktrace: job.stacktrace ?? [],
    returnvalue: job.returnvalue ?? null,
    ...(job.processedBy === undefined ? {} : { processedBy: job.processedBy }),
    timestamps: {
      created: iso(job.timestamp)!,
      ...(job.data.startedAt === undefined ? {} : { firstStarted: iso(job.data.startedAt) }),
      ...(job.processedOn ? { lastStarted: iso(job.processedOn) } : {}),
      ...(job.finishedOn ? { finished: iso(job.finishedOn) } : {}),
      delayMs: job.delay,
    },
    logs,
  };
}
