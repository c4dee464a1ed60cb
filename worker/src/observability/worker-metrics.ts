import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GLOBAL_BUDGET, type SpendStatus } from '@mediagen/core';
import { GENERATION_KINDS, type GenerationKind, type PlanId } from '@mediagen/shared';
import {
  PROVIDERS,
  type BusyReason,
  type CallOutcome,
  type ProviderCall,
  type ProviderName,
} from '../providers/provider-calls';

/** From half a second (speech) to an hour (a slow video). */
const JOB_DURATION_BUCKETS_SECONDS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 3600];

export type BreakerStateName = 'closed' | 'half_open' | 'open';
const BREAKER_STATE_VALUE: Record<BreakerStateName, number> = { closed: 0, half_open: 1, open: 2 };

/**
 * The worker's Prometheus series, in a registry of their own (not prom-client's global one), so two
 * worker pools in one process (tests) or a server in the same process never collide.
 */
export class WorkerMetrics {
  readonly registry = new Registry();

  private readonly providerCalls = new Counter({
    name: 'mediagen_worker_provider_calls_total',
    help: 'Provider calls by provider, call and outcome',
    labelNames: ['provider', 'call', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly providerCallDuration = new Histogram({
    name: 'mediagen_worker_provider_call_duration_seconds',
    help: 'Duration of provider calls that reached the provider',
    labelNames: ['provider', 'call'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  private readonly jobRetries = new Counter({
    name: 'mediagen_worker_job_retries_total',
    help: 'Failed attempts that will be retried',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly jobsCompleted = new Counter({
    name: 'mediagen_worker_jobs_completed_total',
    help: 'Jobs completed',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly jobsFailed = new Counter({
    name: 'mediagen_worker_jobs_failed_total',
    help: 'Jobs failed for good, by catalogue code and how the provider call behind it ended (none: no call)',
    labelNames: ['kind', 'code', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly refunds = new Counter({
    name: 'mediagen_worker_refunds_total',
    help: 'Tokens given back by the worker (failed or canceled jobs)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly rateLimited = new Counter({
    name: 'mediagen_worker_queue_rate_limited_total',
    help: 'Times a queue was paused and its job put back: provider 429 (rate_limited), no free slot in the shared provider rate limit or a provider lockout (throttled), open breaker (circuit_open)',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly deadlines = new Counter({
    name: 'mediagen_worker_job_deadline_exceeded_total',
    help: 'Jobs failed because they ran past JOB_DEADLINE_MS',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly handedBack = new Counter({
    name: 'mediagen_worker_jobs_handed_back_total',
    help: 'Active jobs put back in their queue at shutdown, for another worker',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly leftToQueue = new Counter({
    name: 'mediagen_worker_runs_left_to_queue_total',
    help: 'Runs stopped because Redis could not take a step of them (an outage, a failover); the queue brings the job back',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly breakerState = new Gauge({
    name: 'mediagen_worker_circuit_breaker_state',
    help: 'Circuit breaker per provider: 0 closed, 1 half-open, 2 open',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  // Observed once per job, by the worker that ran it, so the series of all workers add up.
  private readonly waitSeconds = new Histogram({
    name: 'mediagen_job_wait_seconds',
    help: 'Time from enqueue to the first start of a job (processedOn - timestamp)',
    labelNames: ['kind'] as const,
    buckets: JOB_DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  private readonly runSeconds = new Histogram({
    name: 'mediagen_job_run_seconds',
    help: 'Time from the first start of a job to its end, by outcome (completed, or failed for good)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: JOB_DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  private readonly activeJobs = new Gauge({
    name: 'mediagen_worker_active_jobs',
    help: 'Jobs this process is working on right now',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly spendUsd = new Counter({
    name: 'mediagen_provider_spend_usd_total',
    help: 'Estimated USD of the paid calls providers accepted (core/src/spend/price-table.ts)',
    labelNames: ['provider', 'kind', 'plan'] as const,
    registers: [this.registry],
  });

  private readonly budgetUsed = new Gauge({
    name: 'mediagen_provider_budget_used_ratio',
    help: "Today's (UTC) estimated spend over the daily budget, by scope (a provider, or global)",
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  private readonly providerPaused = new Gauge({
    name: 'mediagen_provider_paused',
    help: 'Whether paid calls to the provider are held back (1), by reason: budget, kill_switch or out_of_credit',
    labelNames: ['provider', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly reconcilerActions = new Counter({
    name: 'mediagen_reconciler_actions_total',
    help: 'Generations the reconciler acted on: requeued (job lost), expired (past deadline), concluded',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    // Zero series from the start, so a dashboard sees 'closed' and '0 active' before the first job.
    for (const provider of PROVIDERS) this.breakerState.set({ provider }, 0);
    for (const kind of GENERATION_KINDS) this.activeJobs.set({ kind }, 0);
  }

  providerCall(provider: ProviderName, call: ProviderCall, outcome: CallOutcome, seconds: number | undefined): void {
    this.providerCalls.inc({ provider, call, outcome });
    if (seconds !== undefined) this.providerCallDuration.observe({ provider, call }, seconds);
  }

  spent(provider: ProviderName, kind: GenerationKind, plan: PlanId, usd: number): void {
    this.spendUsd.inc({ provider, kind, plan }, usd);
  }

  /** The spend controls as the maintenance loop last read them. */
  spendStatus(status: SpendStatus): void {
    this.budgetUsed.reset();
    for (const [scope, budget] of Object.entries(status.budgets)) {
      const spent = scope === GLOBAL_BUDGET ? status.today.total : status.today.byProvider[scope as ProviderName];
      this.budgetUsed.set({ scope }, budget === 0 ? 1 : spent / budget);
    }
    for (const provider of PROVIDERS) {
      for (const reason of ['budget', 'kill_switch', 'out_of_credit'] as const) {
        this.providerPaused.set({ provider, reason }, status.paused[provider] === reason ? 1 : 0);
      }
    }
  }

  reconciled(report: { requeued: string[]; expired: string[]; concluded: string[] }): void {
    this.reconcilerActions.inc({ action: 'requeued' }, report.requeued.length);
    this.reconcilerActions.inc({ action: 'expired' }, report.expired.length);
    this.reconcilerActions.inc({ action: 'concluded' }, report.concluded.length);
  }

  retry(kind: GenerationKind): void {
    this.jobRetries.inc({ kind });
  }

  firstStarted(kind: GenerationKind, waitMs: number): void {
    this.waitSeconds.observe({ kind }, Math.max(0, waitMs) / 1000);
  }

  completed(kind: GenerationKind, runMs: number): void {
    this.jobsCompleted.inc({ kind });
    this.runSeconds.observe({ kind, outcome: 'completed' }, Math.max(0, runMs) / 1000);
  }

  failed(kind: GenerationKind, code: string, outcome: CallOutcome | 'none', runMs: number): void {
    this.jobsFailed.inc({ kind, code, outcome });
    this.runSeconds.observe({ kind, outcome: 'failed' }, Math.max(0, runMs) / 1000);
  }

  refunded(kind: GenerationKind): void {
    this.refunds.inc({ kind });
  }

  queueRateLimited(kind: GenerationKind, reason: BusyReason): void {
    this.rateLimited.inc({ kind, reason });
  }

  deadlineExceeded(kind: GenerationKind): void {
    this.deadlines.inc({ kind });
  }

  handedBackJob(kind: GenerationKind): void {
    this.handedBack.inc({ kind });
  }

  runLeftToQueue(kind: GenerationKind): void {
    this.leftToQueue.inc({ kind });
  }

  breaker(provider: ProviderName, state: BreakerStateName): void {
    this.breakerState.set({ provider }, BREAKER_STATE_VALUE[state]);
  }

  jobStarted(kind: GenerationKind): void {
    this.activeJobs.inc({ kind });
  }

  jobEnded(kind: GenerationKind): void {
    this.activeJobs.dec({ kind });
  }
}
