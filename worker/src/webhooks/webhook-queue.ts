import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WebhookDeliveries } from '@mediagen/core';

/** The deliveries' own queue, under the app's prefix: nothing a receiver does reaches the generation queues. */
export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const WEBHOOK_BACKOFF = 'webhook-schedule';

export interface WebhookJobData {
  eventId: string;
}

const BATCH = 100;

/** A delivery's job: retried by the schedule (WEBHOOK_BACKOFF), kept a day once done for operators to look at. */
export function deliveryJobOptions(retryDelaysMs: readonly number[]): JobsOptions {
  return {
    attempts: retryDelaysMs.length + 1,
    backoff: { type: WEBHOOK_BACKOFF },
    removeOnComplete: { age: 24 * 60 * 60 },
    removeOnFail: { age: 7 * 24 * 60 * 60 },
  };
}

/**
 * Moves the outbox's events into the delivery queue, at once when `wake()` is called (a generation
 * ended) and every `intervalMs` whatever happens, each as a job whose id is the event's: if the process
 * dies between adding a job and marking its event, the next pass adds it again and BullMQ keeps the one it
 * has. Several workers dispatch at once without taking the same rows (WebhookDeliveries.dispatch locks
 * them). A wake during a pass runs one more pass after it, so an event committed meanwhile is not left for
 * the timer.
 */
export function startWebhookDispatcher(options: {
  connection: Redis;
  prefix: string;
  deliveries: WebhookDeliveries;
  retryDelaysMs: readonly number[];
  intervalMs: number;
  log: (message: string) => void;
  /** Called before each timed pass (the alarm that calls `wake()` connects again there). */
  onTick?: () => void;
}): { queue: Queue<WebhookJobData>; wake(): void; stop(): Promise<void> } {
  const queue = new Queue<WebhookJobData>(WEBHOOK_QUEUE, { connection: options.connection, prefix: options.prefix });
  const jobOptions = deliveryJobOptions(options.retryDelaysMs);
  const handOver = async (eventIds: string[]) => {
    await queue.addBulk(
      eventIds.map((eventId) => ({ name: 'deliver', data: { eventId }, opts: { ...jobOptions, jobId: eventId } })),
    );
  };
  let running: Promise<void> | null = null;
  let again = false;
  const pass = async () => {
    let handed = BATCH;
    while (handed === BATCH) handed = await options.deliveries.dispatch(BATCH, handOver);
  };
  const wake = () => {
    if (running !== null) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) =>
        options.log(`webhook dispatch failed: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };
  const timer = setInterval(() => {
    options.onTick?.();
    wake();
  }, options.intervalMs);
  timer.unref();
  return {
    queue,
    wake,
    async stop() {
      clearInterval(timer);
      await running;
      await queue.close();
    },
  };
}
