import { createHash, randomInt } from 'node:crypto';
import {
  SPAN_ATTRIBUTES,
  currentTraceParent,
  inSpan,
  outputKeys,
  newGenerationId,
  tagGeneration,
  type GenerationJobOwner,
  type GenerationLifecycle,
  type GenerationRecord,
  type SubmitOutcome as LifecycleSubmitOutcome,
} from '@mediagen/core';
import {
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IMAGE_SEED,
  exceedsPlan,
  imageModelFor,
  imageOptionProblem,
  isGenerationId,
  isImageModel,
  isRetired,
  moderateImagePrompt,
  moderatePrompt,
  parseGenerationRequest,
  resolveVideoRequest,
  tokensExhaustedMessage,
  tooManyInFlightMessage,
  type Generation,
  type GenerationKind,
  type GenerationList,
  type GenerationRequest,
  type ListQuery,
  type Me,
  type ModerationResult,
  type PlanCatalogue,
  type SpeechModel,
  type VideoSettings,
} from '@mediagen/shared';
import type { AuthUser } from '../auth/identity-verifier';
import { ServiceError, notFound, notReady } from '../http/errors';
import type { GenerationHistory } from './generation-history';
import type { GenerationViews } from './generation-views';

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

export interface GenerationServiceOptions {
  lifecycle: GenerationLifecycle;
  history: GenerationHistory;
  views: GenerationViews;
  /** What each plan allows (request limits) and its jobs' priority. */
  plans: PlanCatalogue;
  /** The speech model in use (SPEECH_MODEL): its rules check speech requests, and it is recorded with them. */
  speechModel: SpeechModel;
  /** What follows a submission, a cancel or a deletion on the queue side (jobs, files, the worker told). */
  jobs: Pick<GenerationJobOwner, 'submitted' | 'canceled' | 'gone'>;
  /** The keyed hash of a user's email, under which a closed account's trace is kept (core's emailHash). */
  emailHash(email: string | null): string | null;
  log: GenerationServiceLogger;
  clock?: () => number;
  /** Queued + active generations one user may hold (MAX_IN_FLIGHT_PER_USER). */
  maxInFlightPerUser: number;
  events?: GenerationServiceEvents;
}

export function tooManyInFlight(count: number): ServiceError {
  return new ServiceError(429, 'TOO_MANY_IN_FLIGHT', tooManyInFlightMessage(count));
}

/**
 * The API's generations: requests are checked here (schema, moderation, Idempotency-Key), every change
 * of a generation or a balance goes through the lifecycle, and the queue only carries work.
 */
export class GenerationService {
  private readonly clock: () => number;

  constructor(private readonly options: GenerationServiceOptions) {
    this.clock = options.clock ?? Date.now;
  }

  async submit(user: AuthUser, body: unknown, idempotencyKey?: string): Promise<SubmitOutcome> {
    const { speechModel } = this.options;
    const parsed = parseGenerationRequest(body, { speechModel });
    if (!parsed.ok) throw ServiceError.from(400, parsed.error);
    // No worker reads speech with a model its provider has shut down: nothing is charged for a job none would run.
    if (parsed.value.kind === 'speech' && isRetired(speechModel, this.clock())) throw speechUnavailable();
    const moderation = moderationOf(parsed.value);
    if (!moderation.allowed) throw new ServiceError(400, 'PROMPT_BLOCKED', moderation.message);
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new ServiceError(400, 'INVALID_REQUEST', 'Idempotency-Key must be 1 to 128 letters, digits or _ . : -');
    }

    const { request, video } = await this.withinPlan(user.uid, parsed.value);

    const { kind } = request;
    const id = newGenerationId(kind);
    // One trace per generation: this span's context is kept with it (traceParent), so the workers' runs, the
    // final update and later maintenance join it or link to it.
    tagGeneration(id);
    return inSpan(
      'generation submit',
      { attributes: { [SPAN_ATTRIBUTES.generationId]: id, [SPAN_ATTRIBUTES.kind]: kind } },
      async (span) => {
        const traceParent = currentTraceParent();
        const outcome = await inSpan('token charge', {}, () =>
          this.options.lifecycle.submit({
            id,
            uid: user.uid,
            kind,
            request: recordedRequest(request, speechModel, video),
            prompt: promptOf(request),
            maxInFlight: this.options.maxInFlightPerUser,
            emailHash: this.options.emailHash(user.email),
            ...(idempotencyKey === undefined
              ? {}
              : { idempotency: { key: idempotencyKey, bodyHash: canonicalHash(parsed.value) } }),
            traceParent,
          }),
        );
        span.setAttribute(SPAN_ATTRIBUTES.outcome, outcome.status);
        return this.submitted(outcome, kind);
      },
    );
  }

  /** What a submission's charge decided, as the caller hears it; an accepted one joins its queue first. */
  private async submitted(outcome: LifecycleSubmitOutcome, kind: GenerationKind): Promise<SubmitOutcome> {
    switch (outcome.status) {
      case 'replayed':
        return { generation: await this.options.views.one(outcome.generation), replayed: true };
      case 'idempotency-conflict':
        // draft-ietf-httpapi-idempotency-key-header-06, section 2.7: a key reused with another payload is
        // 422; 409 is for a request still being processed, which never happens here (a submission is one
        // statement: a concurrent repeat waits for it and replays it).
        throw new ServiceError(422, 'IDEMPOTENCY_CONFLICT');
      case 'closed':
        // Closed while this request was on its way: the account is gone, as its token soon says everywhere.
        throw new ServiceError(401, 'UNAUTHENTICATED');
      case 'too-many-in-flight':
        this.options.events?.inFlightRefused?.(kind);
        throw tooManyInFlight(outcome.inFlight);
      case 'spend-capped':
        this.options.events?.quotaRefused?.(kind);
        throw new ServiceError(429, 'DAILY_LIMIT');
      case 'exhausted': {
        this.options.events?.quotaRefused?.(kind);
        const renewsInMs = outcome.resetsAt.getTime() - this.clock();
        const message = tokensExhaustedMessage({ plan: outcome.plan, kind, renewsInMs, plans: this.options.plans });
        throw new ServiceError(402, 'TOKENS_EXHAUSTED', message);
      }
      case 'accepted': {
        const enqueued = await this.enqueue(outcome.generation, this.options.plans[outcome.plan].queuePriority);
        // Its place in line is counted from the record, as everywhere else.
        return { generation: await this.options.views.one(enqueued), replayed: false };
      }
    }
  }

  /**
   * The record is written; now the work. If Redis refuses it, the generation is failed (its token comes
   * back) and the caller hears 503. Should the job have reached Redis after all, the worker finds the
   * generation failed and lets it go; had a worker already started it, the failure is refused and the
   * generation simply goes on. A process that dies right here leaves it queued: the reconciler enqueues it.
   */
  private async enqueue(generation: GenerationRecord, priority: number): Promise<GenerationRecord> {
    try {
      await this.options.jobs.submitted(generation, priority);
      return generation;
    } catch (error) {
      this.options.log.error({ err: error, generationId: generation.id }, 'enqueue failed; failing the generation');
      const failed = await this.options.lifecycle
        .notEnqueued(generation.id, { code: 'NOT_READY', message: notReady().message })
        .catch(() => null);
      if (failed?.ok === false && failed.current !== null && failed.current.status !== 'failed') return failed.current;
      throw notReady();
    }
  }

  /**
   * A new generation with the settings of one of the caller's own, charged like any other. An image gets
   * a new seed: running a prompt again asks for another picture, not the same one.
   */
  async runAgain(user: AuthUser, id: string, idempotencyKey?: string): Promise<SubmitOutcome> {
    const record = isGenerationId(id) ? await this.options.history.find(user.uid, id) : null;
    if (record === null) throw notFound();
    // A speech is read by the speech model in use now, which may not be the one recorded; a video keeps the
    // model, resolution and length it was made with (refused if the plan no longer makes them); an image
    // keeps its model while the caller's plan still includes it, else it gets the plan's default.
    const { seed: _seed, ...settings } = record.request;
    if (record.kind === 'speech') delete settings.model;
    if (record.kind === 'image') {
      const { model } = settings;
      const plan = await this.options.lifecycle.planOf(user.uid);
      if (!isImageModel(model) || !this.options.plans[plan].limits.image.models.includes(model)) delete settings.model;
    }
    return this.submit(user, { kind: record.kind, ...settings }, idempotencyKey);
  }

  async get(user: AuthUser, id: string): Promise<Generation> {
    const record = isGenerationId(id) ? await this.options.history.find(user.uid, id) : null;
    if (record === null) throw notFound();
    return this.options.views.one(record);
  }

  async list(user: AuthUser, query: ListQuery): Promise<GenerationList> {
    const page = await this.options.history.page(user.uid, query);
    return { items: await this.options.views.many(page.records), nextCursor: page.nextCursor };
  }

  async cancel(user: AuthUser, id: string): Promise<Generation> {
    if (!isGenerationId(id)) throw notFound();
    const outcome = await this.options.lifecycle.cancel(id, { by: 'owner', uid: user.uid });
    if (!outcome.ok) {
      if (outcome.current === null) throw notFound();
      // Canceling again changes nothing.
      if (outcome.current.status === 'canceled') return this.options.views.one(outcome.current);
      throw new ServiceError(
        409,
        'ALREADY_FINISHED',
        `This generation has already ${outcome.current.status} and can no longer be canceled.`,
      );
    }
    const canceled = outcome.generation;
    if (canceled.token === 'refunded') this.options.events?.refunded?.(canceled.kind);
    // The record decided; this only saves a worker the trip, and failing changes nothing.
    await this.options.jobs.canceled(canceled);
    return this.options.views.one(canceled);
  }

  /**
   * Deletes one of the user's generations, and its file at once, so a link to it stops working. One still
   * running is canceled first (its token by the cancel rules) and its worker told to stop.
   */
  async remove(user: AuthUser, id: string): Promise<void> {
    if (!isGenerationId(id)) throw notFound();
    const outcome = await this.options.lifecycle.remove(id, user.uid);
    if (!outcome.ok) throw notFound();
    const { removed } = outcome;
    if (removed.status === 'canceled' && removed.token === 'refunded') this.options.events?.refunded?.(removed.kind);
    // The record decided; the rest only tidies up (failures are logged, and harmless: no record points at
    // what is left).
    await this.options.jobs.gone([
      {
        id,
        kind: removed.kind,
        artifactKeys: outputKeys(removed),
        wasRunning: removed.status === 'canceled',
      },
    ]);
  }

  async me(user: AuthUser): Promise<Me> {
    const balance = await this.options.lifecycle.balance(user.uid, this.options.emailHash(user.email));
    return {
      uid: user.uid,
      email: user.email,
      tokens: balance.tokens,
      allowance: balance.allowance,
      resetsAt: balance.resetsAt.toISOString(),
      plan: balance.plan,
    };
  }

  /**
   * The request as the caller's plan allows it, or a refusal: 403 PLAN_LIMIT for more than the plan gives,
   * 400 for what no model renders or an option the model does not take. Free's limits are the tightest, so
   * a speech within them fits every plan and costs no read. An image or a video is settled on the caller's
   * plan, whose default model it gets when it names none: fixed now, like an image's seed, and recorded,
   * so every attempt sends, and spend prices, what was charged for whatever the plan becomes.
   */
  private async withinPlan(
    uid: string,
    request: GenerationRequest,
  ): Promise<{ request: GenerationRequest; video?: VideoSettings }> {
    const { plans } = this.options;
    if (request.kind === 'video') {
      const settled = resolveVideoRequest(await this.options.lifecycle.planOf(uid), request);
      if (settled.ok) return { request, video: settled.settings };
      throw new ServiceError(settled.code === 'PLAN_LIMIT' ? 403 : 400, settled.code, settled.message);
    }
    if (request.kind === 'speech' && exceedsPlan(request, 'free', plans.free) === null) return { request };
    const plan = await this.options.lifecycle.planOf(uid);
    const refusal = exceedsPlan(request, plan, plans[plan]);
    if (refusal !== null) throw new ServiceError(403, 'PLAN_LIMIT', refusal);
    if (request.kind !== 'image') return { request };
    const model = imageModelFor(request, plans[plan]);
    const problem = imageOptionProblem(model, request);
    if (problem !== null) throw new ServiceError(400, 'INVALID_REQUEST', problem);
    return { request: { ...request, model } };
  }
}

export function speechUnavailable(): ServiceError {
  return new ServiceError(503, 'NOT_READY', 'Speech generation is unavailable right now. Nothing was charged.');
}

/**
 * The spec moderates image prompts, each of their weighted and negative parts too; a video prompt or a
 * speech text reaches its provider just the same, so it is moderated as written.
 */
/**
 * The spec moderates image prompts; a video prompt or a speech text reaches its provider just the same.
 * An image's every part is read, its negative prompt too: words kept out still reach the provider.
 */
function moderationOf(request: GenerationRequest): ModerationResult {
  if (request.kind !== 'image') return moderatePrompt(promptOf(request));
  const prompt = moderateImagePrompt(request.prompt);
  if (!prompt.allowed || request.negativePrompt === undefined) return prompt;
  return moderatePrompt(request.negativePrompt);
}

/** The text a generation is made from: the image or video prompt, or the speech text. */
function promptOf(request: GenerationRequest): string {
  return request.kind === 'speech' ? request.input : request.prompt;
}

/**
 * What the record keeps of a request: without its kind; an image gets its seed now so every attempt
 * reuses it, a speech the model in use, so it is read as the creator was shown while it waits, and a
 * video the model, resolution, length and quality its plan settled on.
 */
function recordedRequest(
  request: GenerationRequest,
  speechModel: SpeechModel,
  video: VideoSettings | undefined,
): Record<string, unknown> {
  const { kind: _kind, ...rest } = request;
  if (request.kind === 'image') return { ...rest, seed: request.seed ?? randomInt(0, MAX_IMAGE_SEED + 1) };
  if (request.kind === 'speech') return { ...rest, model: speechModel };
  return { ...rest, ...video };
}

/** Hash of a request with its keys sorted, so the same body in another key order is the same request. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
