import type { Job } from 'bullmq';
import { GenerationError } from '../generation-error';
import type { WorkerMetrics } from '../observability/worker-metrics';
import { NetworkError } from './http';
import { isOpenBreakerError, type ProviderBreakers } from './provider-breakers';
import { ProviderBusyError, type CallOutcome, type ProviderCall, type ProviderName } from './provider-calls';

/** Wraps an error thrown after the job's own signal fired, so the breaker never counts our aborts. */
class AbortedCall extends Error {
  constructor(readonly original: unknown) {
    super('aborted by the worker');
  }
}

export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof AbortedCall) return 'aborted';
  if (error instanceof ProviderBusyError) return error.reason === 'rate_limited' ? 'http_429' : 'circuit_open';
  if (error instanceof GenerationError && error.outcome !== undefined) return error.outcome;
  if (error instanceof NetworkError) return error.outcome;
  return 'network';
}

function describe(error: unknown): string {
  const cause = error instanceof AbortedCall ? error.original : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Every provider call of a job goes through here: the provider's breaker decides whether it may be
 * sent at all, and each call leaves one metric sample and one line in the job's log with its outcome
 * and duration, so `pnpm queues job <id>` shows what the providers said.
 */
export class ProviderGateway {
  constructor(
    private readonly breakers: ProviderBreakers,
    private readonly metrics: WorkerMetrics,
  ) {}

  async call<T>(
    job: Job,
    signal: AbortSignal,
    provider: ProviderName,
    call: ProviderCall,
    action: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    signal.throwIfAborted();
    const startedAt = performance.now();
    try {
      const result = await this.breakers.fire(provider, async () => {
        try {
          return await action(signal);
        } catch (error) {
          throw signal.aborted ? new AbortedCall(error) : error;
        }
      });
      const ms = performance.now() - startedAt;
      this.metrics.providerCall(provider, call, 'ok', ms / 1000);
      // Not waited for: it reaches Redis before the job's next command on the same connection.
      void job.log(`${provider} ${call}: ok in ${Math.round(ms)} ms`).catch(() => undefined);
      return result;
    } catch (error) {
      const ms = performance.now() - startedAt;
      if (isOpenBreakerError(error)) {
        this.metrics.providerCall(provider, call, 'circuit_open', undefined);
        const waitMs = this.breakers.retryAfterMs(provider);
        await job
          .log(`${provider} ${call}: not sent, circuit breaker ${this.breakers.state(provider)}`)
          .catch(() => undefined);
        throw new ProviderBusyError(provider, 'circuit_open', waitMs, `${provider} circuit breaker is open`);
      }
      const outcome = outcomeOf(error);
      this.metrics.providerCall(provider, call, outcome, ms / 1000);
      await job
        .log(`${provider} ${call}: ${outcome} in ${Math.round(ms)} ms - ${describe(error)}`)
        .catch(() => undefined);
      throw error instanceof AbortedCall ? signal.reason : error;
    }
  }
}

/** Whether a call's error says the provider is unwell (opens its breaker). */
export function isProviderFault(error: unknown, faults: ReadonlySet<CallOutcome>): boolean {
  return faults.has(outcomeOf(error));
}
