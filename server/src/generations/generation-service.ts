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
  type Generation,
  type GenerationKind,
  type GenerationList,
  type GenerationRequest,
  type ListQuery,
  type Me,
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

export interface GenerationServiceOptions {
  redis: Redis;
  queues: GenerationQueues;
  prefix: string;
  artifactUrl: (key: string) => string;
  log: GenerationServiceLogger;
  clock?: () => number;
}

/** Submitting, reading, listing and canceling generations; quotas and ownership are enforced here. */
export class GenerationService {
  readonly ledger: QuotaLedger;
  private readonly cancellations: CancellationRegistry;
  private readonly idempotency: IdempotencyRecords;
  private readonly snapshots: CanceledSnapshots;
  private readonly clock: () => number;

  constructor(private readonly options: GenerationServiceOptions) {
    this.clock = options.clock ?? Date.now;
    this.ledger = new QuotaLedger(options.redis, options.prefix, TOKEN_ALLOWANCE, this.clock);
    this.cancellations = new CancellationRegistry(options.redis, options.prefix);
    this.idempotency = new IdempotencyRecords(options.redis, options.prefix);
    this.snapshots = new CanceledSnapshots(options.redis, options.prefix);
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

    const outcome = await this.ledger.consume(user.uid, request.kind, id);
    if (outcome.status === 'exhausted') {
      if (ownRecord) await this.idempotency.release(user.uid, ownRecord.key, id, ownRecord.bodyHash);
      const days = daysUntilReset(outcome.lastResetMs, this.clock());
      throw new ServiceError(402, 'TOKENS_EXHAUSTED', tokensExhaustedMessage(days));
    }

    const data = jobDataFor(user.uid, request, this.clock());
    try {
      await this.options.queues.add(data, id);
    } catch (error) {
      this.options.log.error({ err: error, generationId: id }, 'enqueue failed; refunding the token');
      await Promise.allSettled([
        outcome.status === 'charged' ? this.ledger.refund(user.uid, request.kind, id) : Promise.resolve(false),
        ownRecord ? this.idempotency.release(user.uid, ownRecord.key, id, ownRecord.bodyHash) : Promise.resolve(),
      ]);
      throw notReady();
    }
    if (replayed || outcome.status === 'already-charged') {
      return { generation: (await this.find(user.uid, id)) ?? queuedView(id, data), replayed: true };
    }
    return { generation: queuedView(id, data), replayed: false };
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
    await this.ledger.refund(user.uid, kind, id);
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
    const [state, canceled] = await Promise.all([job.getState(), this.cancellations.isCanceled(id)]);
    return { uid: job.data.uid, generation: await this.view(job, state as JobStateName, canceled) };
  }

  private async find(uid: string, id: string): Promise<Generation | null> {
    const kind = kindOfGenerationId(id);
    if (kind === null) return null;
    const job = await this.ownJob(kind, uid, id);
    if (job === null) return this.snapshots.get(uid, id);
    const [state, canceled] = await Promise.all([job.getState(), this.cancellations.isCanceled(id)]);
    return this.view(job, state as JobStateName, canceled);
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
        views.set(id, await this.view(job, (await job.getState()) as JobStateName, canceled.has(id)));
      }),
    );
    for (const [id, snapshot] of await this.snapshots.getMany(uid, missing)) views.set(id, snapshot);
    return views;
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
