import { Queue, QueueEvents } from 'bullmq';
import { connectRedis } from '@mediagen/core';
import { REDIS_URL, now, sleep, spawnTs } from './env';
import { closeAll, connectMany, type Socket } from './sockets';
import type { BenchStack } from './stack';
import { seedLargeBalances, type BenchUser } from './users';

// A fixed seed: the simulator renders this image once and serves it again, as a provider stand-in
// whose own cost is not what is measured. 1024² is what the default SDXL engine renders for any square
// request (a 512² one included), so every result is marked at that size.
export const IMAGE = { kind: 'image', prompt: 'a small lighthouse', width: 1024, height: 1024, seed: 1 };
const TERMINAL = new Set(['completed', 'failed', 'canceled']);

export interface Heard {
  at: number;
  status: string;
}

/** One step of submissions through the API: when each accepted one was sent, and who owns it. */
export interface Submitted {
  sentAt: Map<string, number>;
  ownerOf: Map<string, number>;
  refused: number;
}

/**
 * Our arm: the stack's simulator (zero latency), a worker process (image concurrency 50) and the API,
 * with one socket per submitter, each holding a large balance. The sockets stay open until `close`, so a
 * generation heard after its step's window is still heard (late), and one never heard is told apart.
 */
export class OursArm {
  /** The first terminal update each generation's owner heard. */
  readonly heard = new Map<string, Heard>();
  /** Submitters whose socket the server dropped, and when: their updates cannot arrive. */
  readonly dropped = new Map<number, number>();
  private sockets: Socket[] = [];
  private sent = 0;

  private constructor(
    private readonly origin: string,
    private readonly users: readonly BenchUser[],
  ) {}

  /** `env`: more settings for both processes (the `tracing` part's OTEL_*). */
  static async start(
    stack: BenchStack,
    emulatorHost: string,
    users: readonly BenchUser[],
    env: Record<string, string> = {},
  ): Promise<OursArm> {
    await stack.worker({ CONCURRENCY_IMAGE: '50', ...env });
    await seedLargeBalances(await stack.databaseUrl(), users);
    const { origin } = await stack.server(emulatorHost, { MAX_IN_FLIGHT_PER_USER: '1000', ...env });
    const arm = new OursArm(origin, users);
    arm.sockets = await connectMany(
      origin,
      users.map((user) => ({ token: user.idToken })),
      (update) => {
        if (update.status !== undefined && TERMINAL.has(update.status) && !arm.heard.has(update.id)) {
          arm.heard.set(update.id, { at: update.at, status: update.status });
        }
      },
    );
    arm.sockets.forEach((socket, index) => socket.on('disconnect', () => arm.dropped.set(index, now())));
    return arm;
  }

  /** `jobs` image submissions at `rate` per second, the submitters taking turns. */
  async submit(rate: number, jobs: number): Promise<Submitted> {
    const submitted: Submitted = { sentAt: new Map(), ownerOf: new Map(), refused: 0 };
    const body = JSON.stringify(IMAGE);
    const pending: Promise<void>[] = [];
    const start = now();
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / rate;
      if (due > now()) await sleep(due - now());
      const owner = this.sent++ % this.users.length;
      const sent = now();
      pending.push(
        fetch(`${this.origin}/api/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.users[owner]!.idToken}` },
          body,
        }).then(async (response) => {
          const answer = (await response.json()) as { id?: string };
          if (response.status === 202 && answer.id) {
            submitted.sentAt.set(answer.id, sent);
            submitted.ownerOf.set(answer.id, owner);
          } else submitted.refused += 1;
        }),
      );
    }
    await Promise.all(pending);
    return submitted;
  }

  /** Waits until every one of `ids` is heard, or `timeoutMs`; returns those still unheard. */
  async waitHeard(ids: Iterable<string>, timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    let unheard = [...ids].filter((id) => !this.heard.has(id));
    while (unheard.length > 0 && Date.now() < deadline) {
      await sleep(100);
      unheard = unheard.filter((id) => !this.heard.has(id));
    }
    return unheard;
  }

  /** Submit → 'completed' at the owner's socket; one never heard (or heard otherwise) counts as endless. */
  latencies(sentAt: ReadonlyMap<string, number>): number[] {
    return [...sentAt].map(([id, sent]) => {
      const heard = this.heard.get(id);
      return heard?.status === 'completed' ? heard.at - sent : Infinity;
    });
  }

  close(): void {
    closeAll(this.sockets);
  }
}

/**
 * Raw BullMQ on the stack's Redis: add → a bench worker process in `mode` (`image`: the picture's own
 * work, `noop`: nothing) → QueueEvents 'completed'. The process stays up across steps.
 */
export class RawArm {
  private steps = 0;

  private constructor(
    private readonly mode: 'image' | 'noop',
    private readonly queue: Queue,
    private readonly done: Map<string, number>,
    private readonly close: () => Promise<unknown>,
  ) {}

  static async start(stack: BenchStack, mode: 'image' | 'noop'): Promise<RawArm> {
    const queueName = `raw-e2e-${mode}`;
    const worker = stack.track(
      spawnTs('bench/targets/bench-worker.ts', {
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        QUEUE_NAME: queueName,
        MODE: mode,
        CONCURRENCY: '50',
        SIMULATOR_URL: stack.simulatorUrl,
        DATA_DIR: stack.dataDir,
      }),
    );
    await worker.waitFor(/bench worker ready/);
    const producer = await connectRedis(REDIS_URL, 'producer');
    const eventsConnection = await connectRedis(REDIS_URL, 'blocking');
    const queue = new Queue(queueName, { connection: producer, prefix: stack.prefix });
    const events = new QueueEvents(queueName, { connection: eventsConnection, prefix: stack.prefix });
    await events.waitUntilReady();
    const done = new Map<string, number>();
    events.on('completed', ({ jobId }) => done.set(jobId, now()));
    const close = async () => {
      await events.close();
      await queue.close();
      return Promise.allSettled([producer.quit(), eventsConnection.quit(), worker.stop()]);
    };
    return new RawArm(mode, queue, done, close);
  }

  /** `jobs` adds at `rate` per second; add → completed of each, endless for one not done in `waitMs`. */
  async roundTrips(rate: number, jobs: number, waitMs: number): Promise<number[]> {
    const step = this.steps++;
    const sent = new Map<string, number>();
    const start = now();
    const adds: Promise<unknown>[] = [];
    for (let index = 0; index < jobs; index += 1) {
      const due = start + (index * 1000) / rate;
      if (due > now()) await sleep(due - now());
      const id = `raw_${this.mode}_${step}_${index}`;
      sent.set(id, now());
      adds.push(this.queue.add('raw', IMAGE, { jobId: id, removeOnComplete: true }));
    }
    await Promise.all(adds);
    const deadline = Date.now() + waitMs;
    while ([...sent.keys()].some((id) => !this.done.has(id)) && Date.now() < deadline) await sleep(50);
    return [...sent].map(([id, at]) => (this.done.has(id) ? this.done.get(id)! - at : Infinity));
  }

  async stop(): Promise<void> {
    await this.close();
  }
}
