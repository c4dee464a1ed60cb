import type { Kysely } from 'kysely';
import {
  DEFAULT_PLAN_RULES,
  type ApiError,
  type GenerationFailure,
  type GenerationKind,
  type PlanCatalogue,
  type PlanId,
} from '@mediagen/shared';
import type { Database } from '../db/schema';
import type { CompletedArtifact } from '../queue/generation-jobs';
import { Accounts, type AccountBalance, type PlanChangeCause, type PlanChangeResult } from './accounts';
import { expireArtifacts } from './artifact-retention';
import type { GenerationRecord } from './generation-record';
import { GenerationSubmissions, type SubmitInput, type SubmitOutcome } from './generation-submissions';
import { GenerationTransitions, type CancelActor } from './generation-transitions';
import type { LifecycleContext } from './lifecycle-context';
import { retryFailed, type RetryOutcome } from './operator-retry';
import { QueueLine } from './queue-line';
import { generationById } from '../reads/generation-by-id';
import type { TransitionOutcome } from './transition-statement';

export interface LifecycleOptions {
  /** Each plan's allowance and period (shared/src/plan-rules.ts; operators configure Pro and Enterprise). */
  plans?: PlanCatalogue;
  /** Provider calls that may cost money one generation may make; a retry past it fails the job. */
  maxPaidCalls?: number;
  clock?: () => number;
}

/**
 * The only code that changes a generation or a balance (docs/ARCHITECTURE.md, "A generation's life"): a
 * facade over the lifecycle's parts, each of its own concern (core/README.md lists them). Each
 * transition is one statement: a compare-and-set on the generation's current state (a transition its state
 * does not allow changes nothing and says so), the token moved in the same statement, a ledger line for
 * every token movement, and the new state announced on GENERATION_EVENTS_CHANNEL, delivered at commit.
 *
 * Token rules, enforced here and nowhere else:
 * - charged at submit (the balance refills to the plan's allowance once the plan's period, 30 days or
 *   Enterprise's one day, has passed since the period began; a balance never goes below 0 or above the
 *   allowance); a plan change keeps what the period has spent and moves the balance to the new allowance
 *   (token-charge.ts, accounts.ts);
 * - given back when the generation fails or is canceled while no provider call that may cost money is
 *   outstanding (`paid_calls` = 0: none was made, or each was answered with a refusal before work);
 * - spent once a provider did, or may have done, paid work: completion, and a failure, cancel or drain
 *   after a task id, an image, audio, a content refusal or a timed-out request came back (both written
 *   once, in token-settlement.ts);
 * - `completed` and `canceled` exclude each other: the first to commit wins.
 *
 * Closing wins (account-closure.ts): an account row is made only under the uid's account lock and never
 * for a closed uid; every statement that moves tokens locks the owner's account row before the
 * generation's, as the closure does, so a statement racing the closure waits for it and then finds
 * nothing to change, and none waits on the closure in a circle.
 */
export class GenerationLifecycle {
  private readonly context: LifecycleContext;
  private readonly accounts: Accounts;
  private readonly submissions: GenerationSubmissions;
  private readonly transitions: GenerationTransitions;
  private readonly queueLine: QueueLine;

  constructor(db: Kysely<Database>, options: LifecycleOptions = {}) {
    const clock = options.clock ?? Date.now;
    this.context = {
      db,
      plans: options.plans ?? DEFAULT_PLAN_RULES,
      maxPaidCalls: options.maxPaidCalls ?? 2,
      now: () => new Date(clock()),
    };
    this.accounts = new Accounts(this.context);
    this.submissions = new GenerationSubmissions(this.context, this.accounts);
    this.transitions = new GenerationTransitions(this.context);
    this.queueLine = new QueueLine(this.context);
  }

  /** Charges a token and records the generation `queued` (generation-submissions.ts). */
  submit(input: SubmitInput): Promise<SubmitOutcome> {
    return this.submissions.submit(input);
  }

  /** `queued` → `active`; an `active` one is taken again (generation-transitions.ts, as are the next nine). */
  start(id: string): Promise<TransitionOutcome> {
    return this.transitions.start(id);
  }

  startWithPaidCall(id: string): Promise<TransitionOutcome> {
    return this.transitions.startWithPaidCall(id);
  }

  providerStarted(id: string): Promise<TransitionOutcome> {
    return this.transitions.providerStarted(id);
  }

  providerCallRefused(id: string): Promise<TransitionOutcome> {
    return this.transitions.providerCallRefused(id);
  }

  recordProviderTask(id: string, taskId: string): Promise<TransitionOutcome> {
    return this.transitions.recordProviderTask(id, taskId);
  }

  complete(id: string, artifact: CompletedArtifact): Promise<TransitionOutcome> {
    return this.transitions.complete(id, artifact);
  }

  fail(id: string, failure: GenerationFailure, reason = 'failed'): Promise<TransitionOutcome> {
    return this.transitions.fail(id, failure, reason);
  }

  notEnqueued(id: string, error: ApiError): Promise<TransitionOutcome> {
    return this.transitions.notEnqueued(id, error);
  }

  cancel(id: string, actor: CancelActor): Promise<TransitionOutcome> {
    return this.transitions.cancel(id, actor);
  }

  expire(id: string, error: GenerationFailure): Promise<TransitionOutcome> {
    return this.transitions.expire(id, error);
  }

  /** Deletes one of the owner's generations, canceling it first if it still runs. */
  remove(id: string, uid: string): Promise<{ ok: true; removed: GenerationRecord } | { ok: false }> {
    return this.transitions.remove(id, uid);
  }

  /** An operator puts a failed generation back in the queue, charged as a submission (operator-retry.ts). */
  retry(id: string, options: { charge: boolean; maxInFlight: number }): Promise<RetryOutcome> {
    return retryFailed(this.context, id, options);
  }

  find(id: string): Promise<GenerationRecord | null> {
    return generationById(this.context.db, id);
  }

  /** The user's balance now (accounts.ts, as are planOf and setPlan). */
  balance(uid: string, emailHash: string | null = null): Promise<AccountBalance> {
    return this.accounts.balance(uid, emailHash);
  }

  planOf(uid: string): Promise<PlanId> {
    return this.accounts.planOf(uid);
  }

  /** An operator's change unless `source` says otherwise (billing changes plans through core's Billing). */
  setPlan(
    uid: string,
    plan: PlanId,
    reason: string,
    source: PlanChangeCause['source'] = 'operator',
  ): Promise<PlanChangeResult> {
    return this.accounts.setPlan(uid, plan, { source, reason });
  }

  /** The user's generations still waiting, in line (queue-line.ts, as is moveInLine). */
  queuedOf(uid: string): Promise<{ id: string; kind: GenerationKind }[]> {
    return this.queueLine.queuedOf(uid);
  }

  moveInLine(id: string, priority: number): Promise<boolean> {
    return this.queueLine.moveInLine(id, priority);
  }

  /** Lets go of artifacts past their plan's retention (artifact-retention.ts). */
  expireArtifacts(
    cutoffs: Partial<Record<PlanId, Date>>,
    limit: number,
  ): Promise<{ id: string; artifactKeys: string[]; traceParent: string | null }[]> {
    return expireArtifacts(this.context, cutoffs, limit);
  }
}
