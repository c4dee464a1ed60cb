import { sql } from 'kysely';
import {
  ERROR_MESSAGES,
  IMAGE_MODEL_RULES,
  IMAGE_MODELS,
  type ApiError,
  type GenerationFailure,
} from '@mediagen/shared';
import { isMissingOutput, type CompletedArtifact } from '../queue/generation-jobs';
import { generationById } from '../reads/generation-by-id';
import { toRecord, type GenerationRecord } from './generation-record';
import type { LifecycleContext } from './lifecycle-context';
import { announce } from './lifecycle-sql';
import { tokenAtEnd, tokenEndingSentence } from './token-settlement';
import { endTransition, runTransition, type TransitionOutcome } from './transition-statement';

/**
 * The paid calls a generation may make: MAX_PAID_CALLS runs' worth of them. A run of an image is one
 * generation call (v1 makes a whole set in one; v2beta one image a call, so a set's `token_count`) and, in
 * 4K, an upscale per image: otherwise an upscale refused once, whose retry must pay for the picture again,
 * would end the generation with its token spent.
 */
function paidCallLimit(maxPaidCalls: number) {
  const oneCallModels = IMAGE_MODELS.filter((model) => IMAGE_MODEL_RULES[model].api === 'v1-text-to-image');
  const generationCalls = sql`case when coalesce(o.request->>'model', 'sdxl-1.0') in (${sql.join(oneCallModels)})
    then 1 else o.token_count end`;
  const upscales = sql`case when o.request->>'resolution' = '4k' then o.token_count else 0 end`;
  return sql`${maxPaidCalls} * (case when o.kind = 'image' then ${generationCalls} + ${upscales} else 1 end)`;
}

export type CancelActor = { by: 'owner'; uid: string } | { by: 'operator'; reason: string };

/** A generation's way from `queued` to where it ends, and its deletion: each step one compare-and-set. */
export class GenerationTransitions {
  constructor(private readonly context: LifecycleContext) {}

  /**
   * A worker takes the generation: `queued` → `active`. An `active` one is taken again without a new
   * version (a retry, a video poll, or a takeover after a worker crashed, with no second charge); anything
   * else (canceled, ended) tells the worker to let go.
   */
  start(id: string): Promise<TransitionOutcome> {
    return runTransition(this.context, id, {
      allowedFrom: ['queued', 'active'],
      set: sql`status = 'active', started_at = coalesce(o.started_at, ${this.context.now()})`,
      announce: sql`o.status = 'queued'`,
    });
  }

  /**
   * `start` and `providerStarted` in one commit, for a run that opens with its paid provider request (an
   * image, speech): one transaction and one announcement fewer per generation. Refused with `call-limit`
   * as `providerStarted` is, and then nothing changed: the run starts without it, and its call is refused.
   */
  async startWithPaidCall(id: string): Promise<TransitionOutcome> {
    const now = this.context.now();
    const outcome = await runTransition(this.context, id, {
      allowedFrom: ['queued', 'active'],
      where: sql`o.paid_calls < ${paidCallLimit(this.context.maxPaidCalls)}`,
      set: sql`status = 'active', started_at = coalesce(o.started_at, ${now}), paid_calls = o.paid_calls + 1,
        provider_started_at = coalesce(o.provider_started_at, ${now})`,
      announce: sql`(o.status = 'queued' or o.provider_started_at is null)`,
    });
    if (!outcome.ok && (outcome.current?.status === 'queued' || outcome.current?.status === 'active')) {
      return { ...outcome, reason: 'call-limit' };
    }
    return outcome;
  }

  /**
   * Committed before every provider request that may cost money (a video start can take a minute; a
   * cancel during it must already know the token is at stake). Refused once the generation has made
   * as many such calls as it may (paidCallLimit), or when it is no longer active.
   */
  async providerStarted(id: string): Promise<TransitionOutcome> {
    const outcome = await runTransition(this.context, id, {
      allowedFrom: ['active'],
      where: sql`o.paid_calls < ${paidCallLimit(this.context.maxPaidCalls)}`,
      set: sql`paid_calls = o.paid_calls + 1, provider_started_at = coalesce(o.provider_started_at, ${this.context.now()})`,
      announce: sql`o.provider_started_at is null`,
    });
    if (!outcome.ok && outcome.current?.status === 'active') return { ...outcome, reason: 'call-limit' };
    return outcome;
  }

  /**
   * A paid request that was counted cost nothing: the provider refused it before doing any work (4xx,
   * 5xx, 429, a failed connection), or the run ended before sending it. It no longer keeps the token at
   * stake.
   */
  providerCallRefused(id: string): Promise<TransitionOutcome> {
    return runTransition(this.context, id, {
      allowedFrom: ['active'],
      where: sql`o.paid_calls > 0`,
      set: sql`paid_calls = o.paid_calls - 1`,
      announce: sql`false`,
    });
  }

  /** Keeps the provider's task id, so a takeover or the reconciler resumes the same paid task. */
  recordProviderTask(id: string, taskId: string): Promise<TransitionOutcome> {
    return runTransition(this.context, id, {
      allowedFrom: ['active'],
      set: sql`provider_task_id = ${taskId}`,
      announce: sql`false`,
    });
  }

  /**
   * `active` → `completed` with its artifact (an image set's first file, and `outputs` every image);
   * refused when a cancel committed first. The set's images not made (filtered, or failed for good) give
   * their tokens back, the rest are spent.
   */
  complete(id: string, artifact: CompletedArtifact): Promise<TransitionOutcome> {
    const outputs = artifact.outputs ?? null;
    return endTransition(this.context, id, ['active'], {
      status: 'completed',
      set: sql`artifact_key = ${artifact.key}, artifact_mime = ${artifact.mimeType}, artifact_bytes = ${artifact.bytes},
        marked_artifact_key = ${artifact.markedKey ?? null},
        content_credentials = ${artifact.contentCredentials === undefined ? null : JSON.stringify(artifact.contentCredentials)}::jsonb,
        outputs = ${outputs === null ? null : JSON.stringify(outputs)}::jsonb`,
      reason: 'completed',
      notMade: (outputs ?? []).filter(isMissingOutput).length,
    });
  }

  /**
   * `queued` | `active` → `failed`: the token comes back unless paid work may have been done. A failure
   * that `tellsToken` ends its message with what became of the token, decided in the same statement; its
   * `providerError` is kept for operators, apart from what the creator reads.
   */
  fail(id: string, failure: GenerationFailure, reason = 'failed'): Promise<TransitionOutcome> {
    const notMade = failure.filteredImages ?? 0;
    const message = failure.tellsToken
      ? sql`${failure.message + ' '} || ${tokenEndingSentence(tokenAtEnd('o', 'unfinished', notMade))}`
      : sql`${failure.message}`;
    return endTransition(this.context, id, ['queued', 'active'], {
      status: 'failed',
      set: sql`error_code = ${failure.code}, error_message = ${message},
        provider_error = ${failure.providerError ?? null}`,
      reason,
      notMade,
    });
  }

  /**
   * `queued` → `failed`, for a generation whose work could not be enqueued: refused once a worker has
   * taken it (then the work did reach the queue, and goes on).
   */
  notEnqueued(id: string, error: ApiError): Promise<TransitionOutcome> {
    return endTransition(this.context, id, ['queued'], {
      status: 'failed',
      set: sql`error_code = ${error.code}, error_message = ${error.message}`,
      reason: 'not enqueued',
    });
  }

  /** `queued` | `active` → `canceled`, by its owner or an operator; the token as for a failure. */
  cancel(id: string, actor: CancelActor): Promise<TransitionOutcome> {
    return endTransition(this.context, id, ['queued', 'active'], {
      status: 'canceled',
      set: sql`error_code = 'CANCELED', error_message = ${ERROR_MESSAGES.CANCELED}`,
      reason: actor.by === 'owner' ? 'canceled by its owner' : `canceled by an operator: ${actor.reason}`,
      ...(actor.by === 'owner' ? { owner: actor.uid } : {}),
    });
  }

  /** Ends a generation whose work is gone or overdue (the reconciler), as a failure. */
  expire(id: string, error: GenerationFailure): Promise<TransitionOutcome> {
    return this.fail(id, error, 'expired');
  }

  /**
   * Deletes one of the owner's generations. One still queued or running is canceled first, by the same
   * rules as any cancel. Its last announcement says it was removed; the caller deletes its artifact
   * (returned) once this has committed, so a link to it stops working at once.
   */
  async remove(id: string, uid: string): Promise<{ ok: true; removed: GenerationRecord } | { ok: false }> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const current = await generationById(this.context.db, id);
      if (current === null || current.uid !== uid) return { ok: false };
      if (current.status === 'queued' || current.status === 'active') {
        await this.cancel(id, { by: 'owner', uid });
        continue;
      }
      const result = await sql<Record<string, unknown>>`
        delete from generations g
        where g.id = ${id} and g.uid = ${uid} and g.status not in ('queued', 'active')
        returning g.*, ${announce('g', true)} as notified`.execute(this.context.db);
      const removed = result.rows[0];
      if (removed !== undefined) return { ok: true, removed: toRecord(removed) };
    }
    return { ok: false };
  }
}
