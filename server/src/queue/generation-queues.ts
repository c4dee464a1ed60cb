import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
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

/** What the socket relay needs: the event stream of each kind. */
export interface GenerationEventSource {
  onQueueEvent(listener: (kind: GenerationKind, event: QueueEventName, jobId: string) => void): () => void;
  onCanceled(listener: (kind: GenerationKind, event: CanceledStreamEvent) => void): () => void;
}

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
export class BullGenerationQueues implements GenerationQueues, GenerationEventSource {
  private closing: Promise<void> | undefined;

  private constructor(
    readonly producer: Redis,
    private readonly blockingConnections: Redis[],
    private readonly queues: Record<GenerationKind, Queue<GenerationJobData, GenerationJobResult>>,
    private readonly events: Record<GenerationKind, QueueEvents>,
    private readonly retry: RetryPolicy,
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
    return new BullGenerationQueues(producer, blockingConnections, queues, events, retry);
  }

  async add(data: AnyGenerationJobData, id: string): Promise<void> {
    await this.queues[data.kind].add(data.kind, data, generationJobOptions(id, this.retry));
  }

  async getJob(kind: GenerationKind, id: string): Promise<GenerationJob | undefined> {
    return this.queues[kind].getJob(id);
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

  onQueueEvent(listener: (kind: GenerationKind, event: QueueEventName, jobId: string) => void): () => void {
    const detach: (() => void)[] = [];
    for (const kind of GENERATION_KINDS) {
      for (const event of RELAYED_EVENTS) {
        const handler = (args: { jobId: string }) => listener(kind, event, args.jobId);
        const queueEvents = this.events[kind] as unknown as NodeJS.EventEmitter;
        queueEvents.on(event, handler);
        detach.push(() => queueEvents.off(event, handler));
      }
    }
    return () => detach.forEach((off) => off());
  }

  onCanceled(listener: (kind: GenerationKind, event: CanceledStreamEvent) => void): () => void {
    const detach: (() => void)[] = [];
    for (const kind of GENERATION_KINDS) {
      const handler = (args: CanceledStreamEvent) => listener(kind, args);
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
