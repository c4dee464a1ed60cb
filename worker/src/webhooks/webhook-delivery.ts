import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import {
  ArtifactUrlSigner,
  WebhookDeliveries,
  connectRedis,
  type AttemptOutcome,
  type Database,
  type DisableRules,
  type RedisEndpoint,
} from '@mediagen/core';
import { WebhookSender } from './webhook-sender';
import { EndingAlarm } from './ending-alarm';
import { WEBHOOK_BACKOFF, WEBHOOK_QUEUE, startWebhookDispatcher, type WebhookJobData } from './webhook-queue';

export interface WebhookSettings {
  /** WEBHOOK_SECRET_KEY: opens the endpoints' signing secrets. */
  secretKey: string;
  /** Deliveries this process sends at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Deliveries one endpoint may have under way at once, across every worker (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpointConcurrency: number;
  /** How long a receiver has to answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * Waits before each retry, after the immediate first attempt: Standard Webhooks' suggested schedule
   * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 h in all). Not an environment setting; tests pass
   * a short one.
   */
  retryDelaysMs: readonly number[];
  /** How often the dispatcher looks for new events (WEBHOOK_DISPATCH_INTERVAL_MS). */
  dispatchIntervalMs: number;
  /** Development mode: a receiver on loopback may be reached. */
  allowLoopback: boolean;
  disable: DisableRules;
  /** How result links in a payload are signed: as the API signs them (ARTIFACT_URL_SECRET, PUBLIC_URL). */
  artifactLinks: { secret: string; ttlSeconds: number; publicUrl: string | null };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const STANDARD_RETRY_DELAYS_MS = [5000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
/** How soon a delivery held back by its endpoint's cap looks again. */
const HELD_BACK_MS = 250;

export interface WebhookDelivery {
  worker: Worker<WebhookJobData>;
  close(): Promise<void>;
}

/**
 * Sends webhook deliveries: the dispatcher (outbox → queue) and a BullMQ worker on the deliveries' own
 * queue. A slow or dead receiver never delays a generation (its own queue and connections) nor another
 * endpoint's deliveries: each attempt ends within `timeoutMs`, and an endpoint may hold at most
 * `perEndpointConcurrency` of the worker's slots at once, across every process (a Redis set of the
 * deliveries under way, each entry expiring after the timeout so a crashed worker's do not stay counted);
 * a delivery over the cap steps aside, re-delayed without using an attempt, and lets the next job run.
 */
export async function startWebhookDelivery(options: {
  settings: WebhookSettings;
  db: Kysely<Database>;
  /** The record's address, for the alarm that dispatches as soon as a generation ends (else only every pass). */
  databaseUrl?: string;
  redis: RedisEndpoint | string;
  prefix: string;
  workerName?: string;
  clock?: () => number;
  log?: (message: string) => void;
}): Promise<WebhookDelivery> {
  const { settings, prefix } = options;
  const clock = options.clock ?? Date.now;
  const log = options.log ?? ((message: string) => console.warn(`[worker] ${message}`));
  const deliveries = new WebhookDeliveries(options.db, settings.secretKey, settings.disable, clock);
  const sender = new WebhookSender({ timeoutMs: settings.timeoutMs, allowLoopback: settings.allowLoopback });
  const signer = new ArtifactUrlSigner(settings.artifactLinks.secret, settings.artifactLinks.ttlSeconds, clock);
  const artifactUrl = (key: string) => `${settings.artifactLinks.publicUrl ?? ''}${signer.signedPath(key)}`;
  const commands = await connectRedis(options.redis, 'blocking', 'webhook-commands');
  const blocking = await connectRedis(options.redis, 'blocking', 'webhook-deliveries');
  let alarm: EndingAlarm | null = null;
  const dispatcher = startWebhookDispatcher({
    connection: commands,
    prefix,
    deliveries,
    retryDelaysMs: settings.retryDelaysMs,
    intervalMs: settings.dispatchIntervalMs,
    log,
    onTick: () => void alarm?.ensure(),
  });
  if (options.databaseUrl !== undefined) {
    alarm = new EndingAlarm(options.databaseUrl, dispatcher.wake, log);
    await alarm.ensure();
  }
  const attempts = settings.retryDelaysMs.length + 1;
  const inFlight = endpointSlots(commands, `${prefix}:webhook-in-flight:`, settings, clock);

  const deliver = async (job: Job<WebhookJobData>, token?: string): Promise<void> => {
    const found = await deliveries.pending(job.data.eventId, artifactUrl);
    if (!found.ok) {
      if (found.reason === 'disabled') await deliveries.abandon(job.data.eventId);
      return;
    }
    const { delivery } = found;
    if (!(await inFlight.take(delivery.endpointId, job.id!))) {
      await job.moveToDelayed(clock() + HELD_BACK_MS, token);
      throw new DelayedError();
    }
    let outcome: AttemptOutcome;
    let error: string | null;
    try {
      const attemptedAt = new Date(clock());
      const result = await sender.send(delivery, attemptedAt);
      error = result.error;
      outcome = result.ok
        ? 'delivered'
        : result.gone
          ? 'gone'
          : job.attemptsMade + 1 >= attempts
            ? 'exhausted'
            : 'retry';
      const { gone: _gone, ...attempt } = result;
      const disabled = await deliveries.record(delivery.eventId, { ...attempt, attemptedAt }, outcome);
      if (disabled !== null) log(`webhook endpoint ${delivery.endpointId} disabled: ${disabled}`);
    } finally {
      await inFlight.give(delivery.endpointId, job.id!);
    }
    // Only a failure BullMQ should retry is thrown; every other outcome is already recorded.
    if (outcome === 'retry') throw new Error(error ?? 'delivery failed');
  };

  const worker = new Worker<WebhookJobData>(WEBHOOK_QUEUE, deliver, {
    connection: blocking,
    prefix,
    concurrency: settings.concurrency,
    ...(options.workerName === undefined ? {} : { name: options.workerName }),
    settings: {
      backoffStrategy: (attemptsMade, type) =>
        type === WEBHOOK_BACKOFF ? (settings.retryDelaysMs[attemptsMade - 1] ?? settings.retryDelaysMs.at(-1) ?? 0) : 0,
    },
  });
  worker.on('error', (error) => console.error('[worker:webhooks]', error.message));

  // Idempotent: a worker shutting down on a signal and its owner closing it too both end here.
  let closing: Promise<void> | undefined;
  return {
    worker,
    close() {
      closing ??= (async () => {
        await alarm?.stop();
        await dispatcher.stop();
        await worker.close();
        await sender.close();
        await commands.quit().catch(() => undefined);
        await blocking.quit().catch(() => undefined);
      })();
      return closing;
    },
  };
}

/** The per-endpoint cap: a sorted set per endpoint of the deliveries under way, scored by when each began. */
function endpointSlots(redis: Redis, keyPrefix: string, settings: WebhookSettings, clock: () => number) {
  // An entry older than this belongs to an attempt that cannot still be running (a crashed worker's).
  const staleAfterMs = settings.timeoutMs * 2 + 5000;
  return {
    async take(endpointId: string, jobId: string): Promise<boolean> {
      const key = keyPrefix + endpointId;
      const now = clock();
      const results = await redis
        .multi()
        .zremrangebyscore(key, '-inf', now - staleAfterMs)
        .zadd(key, now, jobId)
        .zrank(key, jobId)
        .pexpire(key, staleAfterMs)
        .exec();
      const rank = results?.[2]?.[1];
      if (typeof rank === 'number' && rank < settings.perEndpointConcurrency) return true;
      await redis.zrem(key, jobId);
      return false;
    },
    async give(endpointId: string, jobId: string): Promise<void> {
      await redis.zrem(keyPrefix + endpointId, jobId);
    },
  };
}
