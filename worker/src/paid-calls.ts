import type { Job } from 'bullmq';
import type {
  GenerationJobData,
  GenerationLifecycle,
  GenerationRecord,
  PauseReason,
  TransitionOutcome,
} from '@mediagen/core';
import { PROVIDER_OF_KIND, type GenerationKind, type ProviderName } from '@mediagen/shared';
import { callLimitError, canceledError } from './generation-error';
import type { CallOptions } from './processors/processor-context';
import { ProviderOutOfCreditError } from './providers/out-of-credit-error';
import { ProviderBusyError, mayHaveDonePaidWork, ownerPaysFor, type ProviderCall } from './providers/provider-calls';
import { outcomeOf, type ProviderGateway } from './providers/provider-gateway';
import { queueStep } from './queue-step-error';
import type { RecordStep } from './record-step';

/** The spend controls as a run sees them (worker/src/job-spend.ts). */
export interface JobSpend {
  /** Why a paid call to the provider must wait now; null when it may go. */
  holdBack(provider: ProviderName): Promise<PauseReason | null>;
  /** A paid call was accepted: its estimated cost is recorded. Never rejects: a lost estimate fails no job. */
  accepted(job: Job, generation: GenerationRecord, provider: ProviderName, call: ProviderCall): Promise<void>;
  /** The provider's account refused for want of credit: its paid calls may be held back on every worker. */
  outOfCredit(provider: ProviderName, message: string): Promise<void>;
  /** How long a held-back queue waits before its jobs try again (a raised budget or a new day frees it). */
  retryAfterMs: number;
}

export interface PaidCallDeps {
  lifecycle: GenerationLifecycle;
  gateway: ProviderGateway;
  spend: JobSpend;
  /** The runner's retry of a record step while the database is briefly away. */
  record: RecordStep;
  log(message: string): void;
}

type GenerationJob = Job<GenerationJobData>;

/**
 * The paid provider call each kind's every run opens with, nothing awaited before it: the start records
 * that call in the same commit. A video's later runs resume a task the record knows, so a video records
 * its call as it makes it.
 */
const OPENING_PAID_CALL: Record<GenerationKind, ProviderCall | null> = {
  image: 'text_to_image',
  speech: 'speech',
  video: null,
};

const HELD_BACK_BECAUSE: Record<PauseReason, (provider: ProviderName) => string> = {
  kill_switch: () => 'paid provider calls are switched off by an operator',
  budget: (provider) => `the daily spend budget for ${provider} is reached`,
  out_of_credit: (provider) =>
    `the ${provider} account is out of credit, until an operator clears it or a balance check finds credit`,
};

function spendHeldBack(provider: ProviderName, reason: PauseReason, retryAfterMs: number): ProviderBusyError {
  return new ProviderBusyError(provider, reason, retryAfterMs, HELD_BACK_BECAUSE[reason](provider));
}

const once: RecordStep = (_what, transition) => transition();

/**
 * Gives back the paid calls an earlier run counted but could not give back (`refusedCallsToGiveBack` in the
 * job's data), each struck from the job once the record took it. It comes before the record is told
 * anything else of the generation: an ending told first would settle the token as spent for calls that
 * cost the owner nothing. Rejects while the record refuses, and what is left stays with the job. A
 * generation that ended meanwhile has nothing at stake any more: the record refuses the give-back, and
 * the job's copy goes all the same.
 */
export async function giveBackPendingCalls(
  job: GenerationJob,
  lifecycle: Pick<GenerationLifecycle, 'providerCallRefused'>,
  record: RecordStep = once,
): Promise<void> {
  for (let left = job.data.refusedCallsToGiveBack ?? 0; left > 0; left -= 1) {
    await record('give back a refused paid call', () => lifecycle.providerCallRefused(job.id!));
    const { refusedCallsToGiveBack: _given, ...data } = job.data;
    await queueStep('strike the given-back paid call from the job', () =>
      job.updateData(left > 1 ? { ...data, refusedCallsToGiveBack: left - 1 } : data),
    );
  }
}

/**
 * One run's paid provider calls, from before the first to the run's end: the spend controls read before
 * each (a held-back job goes back to its queue as if never started), the provider's rate-limit turn, the
 * call counted in the record before it goes out, its estimated cost recorded once the provider may have
 * worked, and a counted call that cost the owner nothing given back. A give-back the record cannot take
 * stays with the job (giveBackPendingCalls), never dropped.
 */
export class RunPaidCalls {
  /** Counted by the start and not sent yet: given back if the run ends before sending it. */
  private unsentPaidCall = false;
  /** The spend controls were read just before the start: the first paid call goes on that answer. */
  private spendChecked = false;
  /** Recorded while the run goes on (the estimate moves no token); the run waits for them before it ends. */
  private readonly spendRecords: Promise<void>[] = [];
  private current: GenerationRecord | null = null;

  constructor(
    private readonly deps: PaidCallDeps,
    private readonly job: GenerationJob,
  ) {}

  /** The generation as the run's last transition left it (its version is the one progress belongs to). */
  get generation(): GenerationRecord {
    if (this.current === null) throw new Error('the run has not started its generation');
    return this.current;
  }

  /**
   * Before the first call: starts the generation, for a kind that opens with a paid call counting that call
   * in the same commit. Rejects with a ProviderBusyError, nothing recorded, while the spend controls or the
   * provider's rate limit hold the call back: the job goes back to its queue.
   */
  async start(): Promise<TransitionOutcome> {
    const { job, deps } = this;
    const { lifecycle, record } = deps;
    const kind = job.data.kind;
    const id = job.id!;
    await giveBackPendingCalls(job, lifecycle, record);
    // A job whose first step is a paid call waits in its queue, still `queued` for its owner, while the
    // provider is held back (a budget, the kill switch); a video already polling its paid task goes on.
    if (job.data.taskId === undefined) {
      const provider = PROVIDER_OF_KIND[kind];
      const held = await deps.spend.holdBack(provider);
      if (held !== null) throw spendHeldBack(provider, held, deps.spend.retryAfterMs);
      this.spendChecked = true;
    }
    const openingCall = OPENING_PAID_CALL[kind];
    const startWithPaidCall = openingCall !== null;
    if (openingCall !== null) {
      // The provider's rate-limit turn comes before the call is recorded: an owner who cancels while the
      // run waits for it still has a queued generation, and gets the token back.
      await deps.gateway.takeTurn(job, PROVIDER_OF_KIND[kind], openingCall);
    }
    let started = await record('start the generation', () =>
      startWithPaidCall ? lifecycle.startWithPaidCall(id) : lifecycle.start(id),
    );
    this.unsentPaidCall = startWithPaidCall && started.ok;
    // At its limit of paid calls: started without one, the call is refused when it comes.
    if (!started.ok && started.reason === 'call-limit') {
      started = await record('start the generation', () => lifecycle.start(id));
    }
    if (started.ok) this.current = started.generation;
    return started;
  }

  /** One provider call of the run (JobAttempt.call), stopped by `signal`. */
  async call<T>(
    signal: AbortSignal,
    provider: ProviderName,
    call: ProviderCall,
    action: (signal: AbortSignal) => Promise<T>,
    { paid }: CallOptions,
  ): Promise<T> {
    const { job, deps } = this;
    let turnTaken = false;
    if (paid && this.unsentPaidCall) {
      // Recorded by the start, once the run had read the spend controls and taken the call's turn.
      this.unsentPaidCall = false;
      turnTaken = true;
    } else if (paid) {
      // Before anything is recorded: a held-back job goes back to its queue as if never started. The
      // first paid call goes on the answer the run had just before it started the generation.
      const held = this.spendChecked
        ? null
        : await queueStep('read the spend controls', () => deps.spend.holdBack(provider));
      if (held !== null) throw spendHeldBack(provider, held, deps.spend.retryAfterMs);
      // A cancel while the call waits for its turn finds it not recorded: the token comes back.
      await deps.gateway.takeTurn(job, provider, call, signal);
      turnTaken = true;
      const allowed = await deps.record('record the provider call', () => deps.lifecycle.providerStarted(job.id!));
      if (!allowed.ok) throw allowed.reason === 'call-limit' ? callLimitError(job.data.kind) : canceledError();
      this.current = allowed.generation;
    }
    this.spendChecked = false;
    try {
      const model = (this.generation.request as { model?: unknown }).model;
      const result = await deps.gateway.call(job, signal, provider, call, action, {
        turnTaken,
        ...(typeof model === 'string' ? { model } : {}),
      });
      if (paid) this.spendRecords.push(deps.spend.accepted(job, this.generation, provider, call));
      return result;
    } catch (error) {
      const outcome = outcomeOf(error);
      // Work the provider may have charged for is in the spend reports, whatever ended the call.
      if (paid && mayHaveDonePaidWork(outcome)) {
        this.spendRecords.push(deps.spend.accepted(job, this.generation, provider, call));
      }
      // The provider refused before doing any work, or did other work than asked: the user pays nothing.
      if (paid && !ownerPaysFor(outcome)) await this.giveBack('give back the refused paid call');
      // Before the job ends: the next job to the provider must find it held back, not pay the refusal again.
      if (error instanceof ProviderOutOfCreditError) {
        await deps.spend.outOfCredit(error.provider, error.message).catch((failure: unknown) => {
          deps.log(`could not mark ${error.provider} out of credit: ${String(failure)}`);
        });
      }
      throw error;
    }
  }

  /** The run ends without sending the call its start counted: it costs the owner nothing. */
  async giveBackUnsent(): Promise<void> {
    if (!this.unsentPaidCall) return;
    this.unsentPaidCall = false;
    await this.giveBack('give back the unsent paid call');
  }

  /** Waits for the spend estimates recorded while the run went on. */
  async spendRecorded(): Promise<void> {
    await Promise.all(this.spendRecords);
  }

  /**
   * A counted call cost the owner nothing: the record takes it back, or, while the database refuses, the
   * job keeps it, and the next attempt or the reconciler gives it back before the record hears how the
   * generation ended (giveBackPendingCalls). Rejects (a QueueStepError: the record is left as it is) only
   * when Redis cannot keep it either.
   */
  private async giveBack(what: string): Promise<void> {
    const { job } = this;
    try {
      await this.deps.record(what, () => this.deps.lifecycle.providerCallRefused(job.id!));
    } catch (error) {
      this.deps.log(`${job.id}: could not ${what} (${String(error)}); the job keeps it for the next attempt`);
      const refusedCallsToGiveBack = (job.data.refusedCallsToGiveBack ?? 0) + 1;
      await queueStep('keep the paid call to give back', () => job.updateData({ ...job.data, refusedCallsToGiveBack }));
    }
  }
}
