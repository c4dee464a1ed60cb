import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  CancellationRegistry,
  QuotaLedger,
  idempotentGenerationId,
  kindOfGenerationId,
  newGenerationId,
  userKeys,
  type AnyGenerationJobData,
  type ConsumeOutcome,
} from '@mediagen/core';
import {
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IMAGE_SEED,
  TOKEN_ALLOWANCE,
  TOKEN_RESET_PERIOD_MS,
  daysUntilReset,
  moderatePrompt,
  parseGenerationRequest,
  resetsAt,
  tokensExhaustedMessage,
  tooManyInFlightMessage,
  type Generation,
  type GenerationKind,
  type GenerationList,
  type GenerationRequest,
  type ListQuery,
  type Me,
  type QueuePosition,
} from '@mediagen/shared';
import type { AuthUser } from '../auth/identity-verifier';
import { ServiceError, notFound, notReady } from '../http/errors';
import type { GenerationJob, GenerationQueues } from '../queue/generation-queues';
import { CanceledSnapshots } from './canceled-snapshots';
import { generationView, queuedView, type JobStateName } from './generation-view';
import { IdempotencyRecords, canonicalBodyHash } from './idempotency-records';

const GENERATION_ID_PATTERN = /^(image|video|speech)_[a-f0-9]{32}$/;
/** Ids older than the longest a job is kept (failed: 30 days) can only point at removed jobs. */
const INDEX_RETENTION_MS = TOKEN_RESET_PERIOD_MS + 24 * 60 * 60 * 1000;

export interface SubmitOutcome {
  generation: Generation;
  /** True when an earlier request with the same Idempotency-Key already created this generation. */
  replayed: boolean;
}

export interface GenerationServiceLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What the service reports for metrics; every method is optional to listen to. */
export interface GenerationServiceEvents {
  quotaRefused?(kind: GenerationKind): void;
  inFlightRefused?(kind: GenerationKind): void;
  refunded?(kind: GenerationKind): void;
}

/**
 * Told around the enqueue of each new generation, so the socket relay can tell its owner without reading
 * the job back.
 */
export interface SubmissionObserver {
  /** Before the job is added: its queue events may arrive before `enqueued`. */
  enqueuing(uid: string, id: string): void;
  /** The job is queued; `generation` is what the 202 answers. */
  enqueued(uid: string, generation: Generation): void;
  /** The add failed: nothing was queued. */
  notEnqueued(id: string): void;
}

/** Where a waiting generation stands in its queue; null when it is not waiting. */
export interface QueuePositions {
  of(kind: GenerationKind, id: string): Promise<QueuePosition | null>;
}

export interface GenerationServiceOptions {
  redis: Redis;
  queues: GenerationQueues;
  prefix: string;
  artifactUrl: (key: string) => string;
  log: GenerationServiceLogger;
  clock?: () => number;
  /** Queued + active generations one user may hold (MAX_IN_FLIGHT_PER_USER); unlimited when unset. */
  maxInFlightPerUser?: number;
  positions?: QueuePositions;
  events?: GenerationServiceEvents;
}

export function tooManyInFlight(count: number): ServiceError {
  return new ServiceError(429, 'TOO_MANY_IN_FLIGHT', tooManyInFlightMessage(count));
}

/** Submitting, reading, listing and canceling generations; quotas and ownership are enforced here. */
export class GenerationService {
  readonly ledger: QuotaLedger;
  private readonly cancellations: CancellationRegistry;
  private readonly idempotency: IdempotencyRecords;
  private readonly snapshots: CanceledSnapshots;
  private readonly maxInFlight: number;
  private readonly clock: () => number;
  private readonly submissionObservers = new Set<SubmissionObserver>();

  constructor(private readonly options: GenerationServiceOptions) {
    this.clock = options.clock ?? Date.now;
    this.ledger = new QuotaLedger(options.redis, options.prefix, TOKEN_ALLOWANCE, this.clock);
    this.cancellations = new CancellationRegistry(options.redis, options.prefix);
    this.idempotency = new IdempotencyRecords(options.redis, options.prefix);
    this.snapshots = new CanceledSnapshots(options.redis, options.prefix);
    this.maxInFlight = options.maxInFlightPerUser ?? Number.MAX_SAFE_INTEGER;
  }

  /** Returns the function that stops the observing. */
  observeSubmissions(observer: SubmissionObserver): () => void {
    this.submissionObservers.add(observer);
    return () => this.submissionObservers.delete(observer);
  }

  async submit(user: AuthUser, body: unknown, idempotencyKey?: string): Promise<SubmitOutcome> {
    const parsed = parseGenerationRequest(body);
    if (!parsed.ok) throw ServiceError.from(400, parsed.error);
    const request = parsed.value;
    if (request.kind === 'image') {
      const moderation = moderatePrompt(request.prompt);
      if (!moderation.allowed) throw new ServiceError(400, 'PROMPT_BLOCKED', moderation.message);
    }

    let id: string;
    let ownRecord: { key: string; bodyHash: string } | null = null;
    let replayed = false;
    if (idempotencyKey === undefined) {
      id = newGenerationId(request.kind);
    } else {
      if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
        throw new ServiceError(400, 'INVALID_REQUEST', 'Idempotency-Key must be 1 to 128 letters, digits or _ . : -');
      }
      id = idempotentGenerationId(request.kind, user.uid, idempotencyKey);
      const bodyHash = canonicalBodyHash(request);
      const claim = await this.idempotency.claim(user.uid, idempotencyKey, id, bodyHash);
      if (claim.claimed) {
        ownRecord = { key: idempotencyKey, bodyHash };
      } else {
        if (claim.generationId !== id || claim.bodyHash !== bodyHash)
          throw new ServiceError(409, 'IDEMPOTENCY_CONFLICT');
        const existing = await this.find(user.uid, id);
        if (existing !== null) return { generation: existing, replayed: true };
        // The first request is between its claim and its enqueue (or died there): carry on with the same
        // id. The ledger charges an id at most once and the queue holds one job per id.
        replayed = true;
      }
    }

    const outcome = await this.admit(user.uid, request.kind, id);
    if (outcome.status === 'too-many-in-flight' || outcome.status === 'exhausted') {
      if (ownRecord)
        await this.idempotency.release(user.uid, ownRecord.key, id, ownRecord.bodyHash).catch(() => undefined);
      if (outcome.status === 'too-many-in-flight') {
        this.options.events?.inFlightRefused?.(request.kind);
        throw tooManyInFlight(outcome.inFlight);
      }
      this.options.events?.quotaRefused?.(request.kind);
      const days = daysUntilReset(outcome.lastResetMs, this.clock());
      throw new ServiceError(402, 'TOKENS_EXHAUSTED', tokensExhaustedMessage(days));
    }

    const data = jobDataFor(user.uid, request, this.clock());
    // A replay adds nothing new to the queue (the job id is taken), so only first submissions are told.
    const fresh = !replayed && outcome.status === 'charged';
    if (fresh) this.submissionObservers.forEach((observer) => observer.enqueuing(user.uid, id));
    try {
      await this.options.queues.add(data, id);
    } catch (error) {
      // The add may have reached Redis before its answer was lost: a job that is there was accepted, and
      // refunding its token would hand out a free generation.
      const queued = await this.options.queues.getJob(request.kind, id).catch(() => undefined);
      if (queued === undefined) {
        if (fresh) this.submissionObservers.forEach((observer) => observer.notEnqueued(id));
        this.options.log.error({ err: error, generationId: id }, 'enqueue failed; refunding the token');
        // Refunding also takes the id out of flight; a replayed id keeps the charge of its first request.
        await Promise.allSettled([
          outcome.status === 'charged' ? this.ledger.refund(user.uid, request.kind, id) : Promise.resolve(false),
          ownRecord ? this.idempotency.release(user.uid, ownRecord.key, id, ownRecord.bodyHash) : Promise.resolve(),
        ]);
        throw notReady();
      }
      this.options.log.warn({ err: error, generationId: id }, 'enqueue answered with an error, but the job is queued');
    }
    if (replayed || outcome.status === 'already-charged') {
      return { generation: (await this.find(user.uid, id)) ?? queuedView(id, data), replayed: true };
    }
    const generation = await this.withQueuePosition(queuedView(id, data));
    this.submissionObservers.forEach((observer) => observer.enqueued(user.uid, generation));
    return { generation, replayed: false };
  }

  /**
   * Charges the token and takes an in-flight slot in one step. At the cap, ids whose jobs have ended
   * without being settled or refunded (removed by retention, say) are pruned and the charge is tried once
   * more.
   */
  private async admit(uid: string, kind: GenerationKind, id: string): Promise<ConsumeOutcome> {
    const first = await this.ledger.consume(uid, kind, id, this.maxInFlight);
    if (first.status !== 'too-many-in-flight') return first;
    const members = await this.ledger.inFlight(uid);
    const ended = (
      await Promise.all(members.map(async (member) => ((await this.hasEnded(member)) ? member : null)))
    ).filter((member): member is string => member !== null);
    if (ended.length === 0) return first;
    await this.ledger.release(uid, ...ended);
    return this.ledger.consume(uid, kind, id, this.maxInFlight);
  }

  /** Gone, finished or canceled: no longer counts against the owner's in-flight cap. */
  private async hasEnded(id: string): Promise<boolean> {
    const kind = kindOfGenerationId(id);
    if (kind === null) return true;
    if (await this.cancellations.isCanceled(id)) return true;
    const job = await this.options.queues.getJob(kind, id);
    return job === undefined || (job.finishedOn !== undefined && job.finishedOn !== null);
  }

  /** Adds `queue: { position, etaMs }` to a generation that is still waiting to start. */
  private async withQueuePosition(generation: Generation): Promise<Generation> {
    if (generation.status !== 'queued' || this.options.positions === undefined) return generation;
    const queue = await this.options.positions.of(generation.kind, generation.id).catch((error: unknown) => {
      this.options.log.warn({ err: error, generationId: generation.id }, 'could not read the queue position');
      return null;
    });
    return queue === null ? generation : { ...generation, queue };
  }

  async get(user: AuthUser, id: string): Promise<Generation> {
    const generation = GENERATION_ID_PATTERN.test(id) ? await this.find(user.uid, id) : null;
    if (generation === null) throw notFound();
    return generation;
  }

  async list(user: AuthUser, query: ListQuery): Promise<GenerationList> {
    const indexKey = userKeys(this.options.prefix, user.uid).generations;
    const redis = this.options.redis;
    if (query.cursor === undefined) {
      await redis.zremrangebyscore(indexKey, '-inf', `(${this.clock() - INDEX_RETENTION_MS}`);
    }
    // The cursor is the score (creation time, ms) of the last item of the previous page, exclusive.
    const max = query.cursor === undefined ? '+inf' : `(${query.cursor}`;
    const batchSize = Math.max(query.limit * 2, 20);
    const items: Generation[] = [];
    let lastScore: string | null = null;
    for (let offset = 0; items.length < query.limit; offset += batchSize) {
      const flat = await redis.zrevrangebyscore(indexKey, max, '-inf', 'WITHSCORES', 'LIMIT', offset, batchSize);
      if (flat.length === 0) break;
      const entries: { id: string; score: string }[] = [];
      for (let index = 0; index < flat.length; index += 2) entries.push({ id: flat[index]!, score: flat[index + 1]! });
      const wanted = entries.filter(({ id }) => query.kind === undefined || kindOfGenerationId(id) === query.kind);
      const views = await this.findMany(
        user.uid,
        wanted.map(({ id }) => id),
      );
      for (const { id, score } of wanted) {
        const view = views.get(id);
        if (view === undefined) continue;
        items.push(view);
        lastScore = score;
        if (items.length === query.limit) break;
      }
      if (flat.length < batchSize * 2) break;
    }
    let nextCursor: string | null = null;
    if (items.length === query.limit && lastScore !== null) {
      const older = await redis.zcount(indexKey, '-inf', `(${lastScore}`);
      if (older > 0) nextCursor = lastScore;
    }
    return { items, nextCursor };
  }

  async cancel(user: AuthUser, id: string): Promise<Generation> {
    const kind = GENERATION_ID_PATTERN.test(id) ? kindOfGenerationId(id) : null;
    if (kind === null) throw notFound();
    const job = await this.ownJob(kind, user.uid, id);
    if (job === null) {
      // Already canceled and removed from its queue: canceling again changes nothing.
      const snapshot = await this.snapshots.get(user.uid, id);
      if (snapshot === null) throw notFound();
      return snapshot;
    }
    const state = (await job.getState()) as JobStateName;
    const current = await this.view(job, state, await this.cancellations.isCanceled(id));
    if (current.status === 'canceled') return current;
    if (current.status === 'completed' || current.status === 'failed') {
      throw new ServiceError(
        409,
        'ALREADY_FINISHED',
        `This generation has already ${current.status} and can no longer be canceled.`,
      );
    }

    // The flag stops a worker that holds the job or takes it later; removing a waiting job spares it the trip.
    await this.cancellations.cancel(id);
    if (await this.ledger.refund(user.uid, kind, id)) this.options.events?.refunded?.(kind);
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
      await job.remove().catch((error: unknown) => {
        this.options.log.warn(
          { err: error, generationId: id },
          'could not remove a canceled job; the worker will see the flag',
        );
      });
    }
    const canceled: Generation = {
      ...(await this.view(job, state, true)),
      updatedAt: new Date(this.clock()).toISOString(),
    };
    await this.snapshots.put(user.uid, canceled);
    await this.options.queues.publishCanceled(kind, user.uid, canceled).catch((error: unknown) => {
      this.options.log.warn({ err: error, generationId: id }, 'could not publish the cancel event');
    });
    return canceled;
  }

  async me(user: AuthUser): Promise<Me> {
    const balance = await this.ledger.balance(user.uid);
    return {
      uid: user.uid,
      email: user.email,
      tokens: balance.tokens,
      allowance: { ...TOKEN_ALLOWANCE },
      resetsAt: new Date(resetsAt(balance.lastResetMs)).toISOString(),
    };
  }

  /** The current state of any generation with its owner, for the socket relay. */
  async snapshot(kind: GenerationKind, id: string): Promise<{ uid: string; generation: Generation } | null> {
    const job = await this.options.queues.getJob(kind, id);
    if (job === undefined) return null;
    const [{ job: current, state }, canceled] = await Promise.all([
      this.settled(job),
      this.cancellations.isCanceled(id),
    ]);
    const generation = await this.withQueuePosition(this.view(current, state, canceled));
    return { uid: job.data.uid, generation };
  }

  private async find(uid: string, id: string): Promise<Generation | null> {
    const kind = kindOfGenerationId(id);
    if (kind === null) return null;
    const job = await this.ownJob(kind, uid, id);
    if (job === null) return this.snapshots.get(uid, id);
    const [{ job: current, state }, canceled] = await Promise.all([
      this.settled(job),
      this.cancellations.isCanceled(id),
    ]);
    return this.withQueuePosition(this.view(current, state, canceled));
  }

  private async findMany(uid: string, ids: readonly string[]): Promise<Map<string, Generation>> {
    const [jobs, canceled] = await Promise.all([
      Promise.all(ids.map((id) => this.ownJob(kindOfGenerationId(id)!, uid, id))),
      this.cancellations.canceledAmong(ids),
    ]);
    const views = new Map<string, Generation>();
    const missing: string[] = [];
    await Promise.all(
      jobs.map(async (job, index) => {
        const id = ids[index]!;
        if (job === null) {
          missing.push(id);
          return;
        }
        const { job: current, state } = await this.settled(job);
        views.set(id, this.view(current, state, canceled.has(id)));
      }),
    );
    for (const [id, snapshot] of await this.snapshots.getMany(uid, missing)) views.set(id, snapshot);
    return views;
  }

  /**
   * The job's state, and job data at least as new: the data was read first, so a job that ended in
   * between is read again (a 'completed' state with the data of a running job would have no result).
   */
  private async settled(job: GenerationJob): Promise<{ job: GenerationJob; state: JobStateName }> {
    const state = (await job.getState()) as JobStateName;
    if ((state === 'completed' || state === 'failed') && !job.finishedOn) {
      const fresh = await this.options.queues.getJob(job.data.kind, job.id!);
      if (fresh !== undefined) return { job: fresh, state };
    }
    return { job, state };
  }

  /** Someone else's generation reads exactly like a missing one. */
  private async ownJob(kind: GenerationKind, uid: string, id: string): Promise<GenerationJob | null> {
    const job = await this.options.queues.getJob(kind, id);
    return job !== undefined && job.data.uid === uid ? job : null;
  }

  private view(job: GenerationJob, state: JobStateName, canceled: boolean): Generation {
    return generationView(job, state, { canceled, artifactUrl: this.options.artifactUrl });
  }
}

/** The job payload: the request without its kind; an image gets its seed now so every retry reuses it. */
function jobDataFor(uid: string, request: GenerationRequest, createdAt: number): AnyGenerationJobData {
  switch (request.kind) {
    case 'image': {
      const { kind, ...rest } = request;
      return { uid, kind, createdAt, request: { ...rest, seed: rest.seed ?? randomInt(0, MAX_IMAGE_SEED + 1) } };
    }
    case 'video': {
      const { kind, ...rest } = request;
      return { uid, kind, createdAt, request: rest };
    }
    case 'speech': {
      const { kind, ...rest } = request;
      return { uid, kind, createdAt, request: rest };
    }
  }
}
