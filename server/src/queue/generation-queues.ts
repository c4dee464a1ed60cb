import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import {
  RecentRunTimes,
  connectRedis,
  generationJobOptions,
  queueName,
  type AnyGenerationJobData,
  type GenerationJobData,
  type GenerationJobResult,
  type RetryPolicy,
} from '@mediagen/core';
import { GENERATION_KINDS, type Generation, type GenerationKind } from '@mediagen/shared';

export type GenerationJob = Job<GenerationJobData, GenerationJobResult>;

/**
 * A cancel ends a generation without a BullMQ event (or with a 'removed' event after which the job can
 * no longer be read), so the server writes its own event into the queue's event stream: every server's
 * QueueEvents reads it and tells its own sockets, exactly like the other updates.
 */
export const CANCELED_STREAM_EVENT = 'mediagen:canceled';
/** BullMQ's own default length for the events stream; XADD must not trim it shorter. */
const EVENTS_STREAM_MAX_LENGTH = 10_000;

export interface CanceledStreamEvent {
  jobId: string;
  uid: string;
  /** The canceled Generation as JSON. */
  generation: string;
}

export type QueueEventName = 'waiting' | 'delayed' | 'active' | 'progress' | 'completed' | 'failed' | 'removed';

/** What the generation service needs from the queues; it never sees BullMQ connections. */
export interface GenerationQueues {
  add(data: AnyGenerationJobData, id: string): Promise<void>;
  getJob(kind: GenerationKind, id: string): Promise<GenerationJob | undefined>;
  publishCanceled(kind: GenerationKind, uid: string, generation: Generation): Promise<void>;
}

/**
 * One entry of a queue's event stream. `eventId` is the stream id, which starts with the time (ms) the
 * event was written: the delivery lag is measured from it.
 */
export type QueueEventListener = (
  kind: GenerationKind,
  event: QueueEventName,
  jobId: string,
  eventId: string,
  /** The value a 'progress' event carries. */
  progress?: number,
) => void;
export type CanceledEventListener = (kind: GenerationKind, event: CanceledStreamEvent, eventId: string) => void;

/** What the socket relay needs: the event stream of each kind. */
export interface GenerationEventSource {
  onQueueEvent(listener: QueueEventListener): () => void;
  onCanceled(listener: CanceledEventListener): () => void;
}

/** Where a waiting job stands in its queue, and what the queues look like, for positions and metrics. */
export interface QueueInspector {
  /** 1-based place of a job in its kind's wait list (next to run is 1); null when it is not waiting. */
  waitingPosition(kind: GenerationKind, id: string): Promise<number | null>;
  /** The ids of the next `count` jobs to run, first one first. */
  waitingHead(kind: GenerationKind, count: number): Promise<string[]>;
  /** Worker connections serving a kind (BullMQ names them), cached for a few seconds; null when unknown. */
  workerCount(kind: GenerationKind): Promise<number | null>;
  /** Mean of the kind's latest completed runs (ms), as the workers recorded them, cached for a few seconds; null before any. */
  meanRunMs(kind: GenerationKind): Promise<number | null>;
  jobCounts(kind: GenerationKind): Promise<Record<string, number>>;
  isPaused(kind: GenerationKind): Promise<boolean>;
}

/** The states of `mediagen_queue_jobs`. */
export const COUNTED_JOB_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;
/** How long worker counts and mean run times are reused: they change slowly, and positions are read often. */
const ETA_INPUTS_CACHE_MS = 5000;

export interface QueueLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

interface Options {
  redisUrl: string;
  prefix: string;
  retry: RetryPolicy;
  log: QueueLogger;
}

// KEYS: a wait list. ARGV: job id. New jobs are LPUSHed and workers take from the right, so the next job
// is the last element: its place is the list's length minus its index. -1 when it is not waiting.
const WAITING_POSITION_SCRIPT = `
local index = redis.call('LPOS', KEYS[1], ARGV[1])
if not index then
  return -1
end
return redis.call('LLEN', KEYS[1]) - index
`;

type ProducerRedis = Redis & { waitingPosition(waitKey: string, id: string): Promise<number> };

const RELAYED_EVENTS: readonly QueueEventName[] = [
  'waiting',
  'delayed',
  'active',
  'progress',
  'completed',
  'failed',
  'removed',
];

/**
 * BullMQ behind one adapter: a 'producer' connection (fails fast, for HTTP handlers) shared by one Queue
 * per kind, and one QueueEvents per kind on its own 'blocking' connection.
 */
export class BullGenerationQueues implements GenerationQueues, GenerationEventSource, QueueInspector {
  private closing: Promise<void> | undefined;
  // CLIENT LIST may be refused by a managed Redis: the count, and so the ETA, is then unknown rather than wrong.
  private readonly workerCounts = new LRUCache<GenerationKind, { count: number | null }>({
    max: GENERATION_KINDS.length,
    ttl: ETA_INPUTS_CACHE_MS,
    fetchMethod: async (kind) => ({ count: await this.queues[kind].getWorkersCount().catch(() => null) }),
  });
  // "No run yet" is not kept: the first completed run gives ETAs at once.
  private readonly meanRuns = new LRUCache<GenerationKind, { ms: number }>({
    max: GENERATION_KINDS.length,
    ttl: ETA_INPUTS_CACHE_MS,
    fetchMethod: async (kind) => {
      const ms = await this.runTimes.meanMs(kind).catch(() => null);
      return ms === null ? undefined : { ms };
    },
  });

  private constructor(
    readonly producer: ProducerRedis,
    private readonly blockingConnections: Redis[],
    private readonly queues: Record<GenerationKind, Queue<GenerationJobData, GenerationJobResult>>,
    private readonly events: Record<GenerationKind, QueueEvents>,
    private readonly retry: RetryPolicy,
    private readonly runTimes: RecentRunTimes,
  ) {}

  static async open({ redisUrl, prefix, retry, log }: Options): Promise<BullGenerationQueues> {
    const producer = await connectRedis(redisUrl, 'producer', `${prefix}:server:producer`);
    const blockingConnections: Redis[] = [];
    const queues = {} as Record<GenerationKind, Queue<GenerationJobData, GenerationJobResult>>;
    const events = {} as Record<GenerationKind, QueueEvents>;
    try {
      for (const kind of GENERATION_KINDS) {
        const queue = new Queue<GenerationJobData, GenerationJobResult>(queueName(kind), {
          connection: producer,
          prefix,
        });
        queue.on('error', (err) => log.warn({ err, kind }, 'queue error'));
        queues[kind] = queue;

        // Start reading after the newest event that exists now, not at '$' once the first XREAD runs:
        // an event added while the reader starts would otherwise be lost.
        const newest = await producer.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1);
        const blocking = await connectRedis(redisUrl, 'blocking', `${prefix}:server:events:${kind}`);
        blockingConnections.push(blocking);
        const queueEvents = new QueueEvents(queueName(kind), {
          connection: blocking,
          prefix,
          lastEventId: newest[0]?.[0] ?? '0-0',
        });
        queueEvents.on('error', (err) => log.warn({ err, kind }, 'queue events error'));
        events[kind] = queueEvents;
      }
      await Promise.all(Object.values(events).map((queueEvents) => queueEvents.waitUntilReady()));
    } catch (error) {
      await Promise.allSettled([
        ...Object.values(events).map((queueEvents) => queueEvents.close()),
        ...Object.values(queues).map((queue) => queue.close()),
      ]);
      for (const connection of [...blockingConnections, producer]) connection.disconnect();
      throw error;
    }
    // One script rather than a MULTI: a transaction on this connection copies every BullMQ script into
    // its pipeline, which made the position read the costliest part of a submission.
    producer.defineCommand('waitingPosition', { numberOfKeys: 1, lua: WAITING_POSITION_SCRIPT });
    return new BullGenerationQueues(
      producer as ProducerRedis,
      blockingConnections,
      queues,
      events,
      retry,
      new RecentRunTimes(producer, prefix),
    );
  }

  async add(data: AnyGenerationJobData, id: string): Promise<void> {
    await this.queues[data.kind].add(data.kind, data, generationJobOptions(id, this.retry));
  }

  async getJob(kind: GenerationKind, id: string): Promise<GenerationJob | undefined> {
    return this.queues[kind].getJob(id);
  }

  /** The owner's uid alone, without reading the rest of the job. */
  async ownerOf(kind: GenerationKind, id: string): Promise<string | null> {
    const data = await this.producer.hget(this.queues[kind].toKey(id), 'data');
    if (data === null) return null;
    return (JSON.parse(data) as Partial<GenerationJobData>).uid ?? null;
  }

  async publishCanceled(kind: GenerationKind, uid: string, generation: Generation): Promise<void> {
    await this.producer.xadd(
      this.queues[kind].keys.events!,
      'MAXLEN',
      '~',
      EVENTS_STREAM_MAX_LENGTH,
      '*',
      'event',
      CANCELED_STREAM_EVENT,
      'jobId',
      generation.id,
      'uid',
      uid,
      'generation',
      JSON.stringify(generation),
    );
  }

  /** The BullMQ queues themselves, for the admin UI. */
  bullQueues(): Queue[] {
    return GENERATION_KINDS.map((kind) => this.queues[kind] as unknown as Queue);
  }

  async waitingPosition(kind: GenerationKind, id: string): Promise<number | null> {
    const position = await this.producer.waitingPosition(this.queues[kind].keys.wait!, id);
    return position < 0 ? null : position;
  }

  async waitingHead(kind: GenerationKind, count: number): Promise<string[]> {
    const ids = await this.producer.lrange(this.queues[kind].keys.wait!, -count, -1);
    return ids.reverse();
  }

  async workerCount(kind: GenerationKind): Promise<number | null> {
    return (await this.workerCounts.fetch(kind))?.count ?? null;
  }

  async meanRunMs(kind: GenerationKind): Promise<number | null> {
    return (await this.meanRuns.fetch(kind))?.ms ?? null;
  }

  jobCounts(kind: GenerationKind): Promise<Record<string, number>> {
    return this.queues[kind].getJobCounts(...COUNTED_JOB_STATES);
  }

  isPaused(kind: GenerationKind): Promise<boolean> {
    return this.queues[kind].isPaused();
  }

  onQueueEvent(listener: QueueEventListener): () => void {
    const detach: (() => void)[] = [];
    for (const kind of GENERATION_KINDS) {
      for (const event of RELAYED_EVENTS) {
        const handler = (args: { jobId: string; data?: unknown }, eventId: string) =>
          listener(kind, event, args.jobId, eventId, typeof args.data === 'number' ? args.data : undefined);
        const queueEvents = this.events[kind] as unknown as NodeJS.EventEmitter;
        queueEvents.on(event, handler);
        detach.push(() => queueEvents.off(event, handler));
      }
    }
    return () => detach.forEach((off) => off());
  }

  onCanceled(listener: CanceledEventListener): () => void {
    const detach: (() => void)[] = [];
    for (const kind of GENERATION_KINDS) {
      const handler = (args: CanceledStreamEvent, eventId: string) => listener(kind, args, eventId);
      // A custom stream event: QueueEvents emits it under its own name, outside its typed event map.
      const queueEvents = this.events[kind] as unknown as NodeJS.EventEmitter;
      queueEvents.on(CANCELED_STREAM_EVENT, handler);
      detach.push(() => queueEvents.off(CANCELED_STREAM_EVENT, handler));
    }
    return () => detach.forEach((off) => off());
  }

  /** Redis answers PING in time through the producer connection, and every event reader is connected. */
  async isReady(timeoutMs: number): Promise<boolean> {
    if (this.closing) return false;
    const check = async () => {
      if ((await this.producer.ping()) !== 'PONG') return false;
      const clients = await Promise.all(
        Object.values(this.events).map((queueEvents) => queueEvents.getBackend().client),
      );
      return clients.every((client) => (client as { status?: string }).status === 'ready');
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([check().catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled(Object.values(this.events).map((queueEvents) => queueEvents.close()));
      await Promise.allSettled(Object.values(this.queues).map((queue) => queue.close()));
      await Promise.allSettled(
        [...this.blockingConnections, this.producer].map((connection) => quitOrDisconnect(connection)),
      );
    })();
    return this.closing;
  }
}

async function quitOrDisconnect(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
