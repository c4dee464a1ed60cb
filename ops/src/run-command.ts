import { GENERATION_KINDS, PROVIDERS, SALES_VOLUME_LABELS, SUPPORT_TOPIC_LABELS } from '@mediagen/shared';
import type { Command } from './cli-args';
import { USAGE } from './cli-args';
import { COUNTED_STATES, countJobs } from './commands/counts';
import { drainUser } from './commands/drain-user';
import { findJobs } from './commands/find-jobs';
import { jobRecord } from './commands/job-record';
import { setPaused } from './commands/pause-resume';
import { retryFailed } from './commands/retry-failed';
import { answerSupport, listSupportRequests } from './commands/support-requests';
import { userPlan } from './commands/user-plan';
import { table } from './format';
import type { OpsContext } from './ops-context';

export interface CommandOutput {
  /** What --json prints. */
  json: unknown;
  /** What a person reads. */
  text: string;
}

/** Runs one parsed command and renders its result both ways; no printing, no exiting. */
export async function runCommand(ctx: OpsContext, command: Exclude<Command, { name: 'help' }>): Promise<CommandOutput> {
  switch (command.name) {
    case 'counts': {
      const queues = await countJobs(ctx);
      const text = table(
        ['queue', ...COUNTED_STATES, 'paused', 'rate-limited', 'record: queued', 'record: active'],
        queues.map((queue) => [
          queue.queue,
          ...COUNTED_STATES.map((state) => queue.counts[state]),
          queue.paused ? 'yes' : 'no',
          queue.rateLimitedMs > 0 ? `${queue.rateLimitedMs} ms` : '-',
          queue.record.queued,
          queue.record.active,
        ]),
      );
      return { json: queues, text };
    }
    case 'job': {
      const record = await jobRecord(ctx, command.id);
      const { job } = record;
      const text = [
        `record: ${JSON.stringify(record.generation, null, 2)}`,
        job === null
          ? 'job: no longer kept by the queue'
          : [
              `job: ${JSON.stringify({ ...job, logs: undefined }, null, 2)}`,
              `logs (${job.logs.length}):`,
              ...job.logs.map((line) => `  ${line}`),
            ].join('\n'),
      ].join('\n');
      return { json: record, text };
    }
    case 'find': {
      const result = await findJobs(ctx, command.by, command.value, command.limit);
      const rows = result.generations.map((generation) => [
        generation.id,
        generation.status,
        generation.token,
        generation.uid,
        generation.createdAt,
        generation.taskId,
        generation.error,
        generation.providerError,
        generation.traceId,
      ]);
      const text =
        result.generations.length === 0
          ? `no generations found for ${command.by} '${command.value}'`
          : table(['id', 'status', 'token', 'uid', 'created', 'task', 'error', 'provider said', 'trace'], rows);
      return { json: result, text };
    }
    case 'pause':
    case 'resume': {
      const results = await setPaused(ctx, command.kinds, command.name === 'pause');
      return {
        json: results,
        text: table(
          ['kind', 'paused'],
          results.map((result) => [result.kind, result.paused ? 'yes' : 'no']),
        ),
      };
    }
    case 'retry-failed': {
      const outcomes = await retryFailed(ctx, command.kinds, { limit: command.limit, free: command.free });
      const text =
        outcomes.length === 0
          ? 'no failed jobs'
          : table(
              ['id', 'uid', 'result', 'charged', 'why'],
              outcomes.map((outcome) => [
                outcome.id,
                outcome.uid,
                outcome.result,
                outcome.charged ? 'yes' : 'no',
                outcome.detail,
              ]),
            );
      return { json: outcomes, text };
    }
    case 'drain-user': {
      const result = await drainUser(ctx, command.uid, command.reason);
      const text = [
        result.generations.length === 0
          ? `nothing in flight for user '${command.uid}'`
          : table(
              ['id', 'was', 'outcome', 'token', 'job removed'],
              result.generations.map((generation) => [
                generation.id,
                generation.was,
                generation.outcome,
                generation.token,
                generation.jobRemoved ? 'yes' : 'no',
              ]),
            ),
        `tokens now: image ${result.tokens.image}, video ${result.tokens.video}, speech ${result.tokens.speech}`,
      ].join('\n');
      return { json: result, text };
    }
    case 'spend': {
      const [status, totals] = await Promise.all([
        ctx.spend.controls.status(),
        ctx.spend.ledger.totals(command.by, command.days),
      ]);
      const usd = (value: number) => `$${value.toFixed(2)}`;
      const text = [
        `kill switch: ${status.killSwitch.on ? `ON since ${status.killSwitch.since} (${status.killSwitch.reason})` : 'off'}`,
        ...Object.entries(status.outOfCredit).map(
          ([provider, mark]) =>
            `${provider}: OUT OF CREDIT since ${mark.since} (${mark.message}); clear with \`clear-out-of-credit ${provider}\``,
        ),
        table(
          ['today (UTC)', 'spent', 'daily budget', 'paid calls'],
          [
            ...PROVIDERS.map((provider) => [
              provider,
              usd(status.today.byProvider[provider]),
              status.budgets[provider] === undefined ? '-' : usd(status.budgets[provider]),
              status.paused[provider] === undefined ? 'going' : `held back (${status.paused[provider]})`,
            ]),
            [
              'all',
              usd(status.today.total),
              status.budgets.global === undefined ? '-' : usd(status.budgets.global),
              '',
            ],
          ],
        ),
        `by ${command.by}, last ${command.days} day${command.days === 1 ? '' : 's'}:`,
        totals.length === 0
          ? 'nothing spent'
          : table(
              [command.by, 'spent', 'paid calls'],
              totals.map((row) => [row.key, usd(row.usd), row.calls]),
            ),
      ].join('\n');
      return { json: { status, by: command.by, days: command.days, totals }, text };
    }
    case 'budget': {
      await ctx.spend.controls.setBudget(command.scope, command.dailyUsd);
      const text =
        command.dailyUsd === null
          ? `no daily budget for ${command.scope}`
          : `daily budget of ${command.scope}: $${command.dailyUsd.toFixed(2)}`;
      return { json: { scope: command.scope, dailyUsd: command.dailyUsd }, text };
    }
    case 'kill-switch': {
      await ctx.spend.controls.setKillSwitch(command.on, command.reason);
      const text = command.on
        ? 'kill switch ON: no paid provider call goes out; jobs wait in their queues'
        : 'kill switch off: paid provider calls go out again';
      return { json: { on: command.on, reason: command.reason }, text };
    }
    case 'clear-out-of-credit': {
      const cleared = await ctx.spend.controls.credit.clear(command.provider);
      const text = cleared
        ? `${command.provider} no longer marked out of credit: its paid calls go out again`
        : `${command.provider} was not marked out of credit`;
      return { json: { provider: command.provider, cleared }, text };
    }
    case 'sales': {
      const page = await ctx.sales.list({ limit: command.limit });
      // Each message whole, after its header line: it is the operator's to read, as text.
      const text =
        page.items.length === 0
          ? 'no sales requests'
          : page.items
              .map((request) =>
                [
                  `#${request.id}  ${request.company}  ${SALES_VOLUME_LABELS[request.volume]}  ${request.email}` +
                    `  ${request.uid === null ? 'signed out' : `account ${request.uid}`}  ${request.createdAt}`,
                  ...request.message.split('\n').map((line) => `    ${line}`),
                ].join('\n'),
              )
              .join('\n\n');
      return { json: page, text };
    }
    case 'support': {
      if (command.action === 'answer') {
        const answer = await answerSupport(ctx, command.id, command.reply, command.by);
        const text = answer.emailed
          ? `support request ${command.id} answered; the reply went to ${answer.request.email} through ${answer.via}`
          : `support request ${command.id} marked answered (no reply sent)`;
        return { json: answer, text };
      }
      const page = await listSupportRequests(ctx, command.status, command.limit);
      // Each message whole, after its header line: it is the operator's to read, as text.
      const text =
        page.items.length === 0
          ? command.status === 'open'
            ? 'no open support requests'
            : 'no support requests'
          : page.items
              .map((request) =>
                [
                  `#${request.id}  ${request.status}  ${SUPPORT_TOPIC_LABELS[request.topic]}  ${request.email}` +
                    `  ${request.uid === null ? 'signed out' : `account ${request.uid}`}  ${request.createdAt}`,
                  ...request.message.split('\n').map((line) => `    ${line}`),
                  ...(request.status === 'answered'
                    ? [
                        `  answered by ${request.answeredBy} at ${request.answeredAt}${request.reply === null ? ', no reply' : ':'}`,
                      ]
                    : []),
                  ...(request.reply === null ? [] : request.reply.split('\n').map((line) => `    ${line}`)),
                ].join('\n'),
              )
              .join('\n\n') + (page.nextCursor === null ? '' : `\n\n(more: raise --limit)`);
      return { json: page, text };
    }
    case 'plan': {
      const result = await userPlan(ctx, command.uid, command.plan, command.reason);
      const { balance } = result;
      const text = [
        command.plan === null
          ? `user '${command.uid}' is on ${balance.plan}`
          : result.changed
            ? `user '${command.uid}' moved from ${result.from} to ${balance.plan}`
            : `user '${command.uid}' was already on ${balance.plan}`,
        table(
          ['kind', 'tokens', 'allowance'],
          GENERATION_KINDS.map((kind) => [kind, balance.tokens[kind], balance.allowance[kind]]),
        ),
        `period resets ${balance.resetsAt.toISOString()}`,
      ].join('\n');
      return { json: result, text };
    }
  }
}

export { USAGE };
