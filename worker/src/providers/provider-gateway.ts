import type { Job } from 'bullmq';
import { SPAN_ATTRIBUTES, SpanKind, inSpan } from '@mediagen/core';
import { GenerationError } from '../generation-error';
import type { WorkerMetrics } from '../observability/worker-metrics';
import { NetworkError } from './http';
import { isOpenBreakerError, type ProviderBreakers } from './provider-breakers';
import {
  AskAgainLater,
  ProviderBusyError,
  type CallOutcome,
  type ProviderCall,
  type ProviderName,
} from './provider-calls';
import type { ProviderRateLimiter } from './provider-rate-limiter';

/** Wraps an error thrown after the job's own signal fired, so the breaker never counts our aborts. */
class AbortedCall extends Error {
  constructor(readonly original: unknown) {
    super('aborted by the worker');
  }
}

const BUSY_OUTCOMES = {
  rate_limited: 'http_429',
  throttled: 'throttled',
  budget: 'held_back',
  kill_switch: 'held_back',
  out_of_credit: 'held_back',
  circuit_open: 'circuit_open',
} as const satisfies Record<ProviderBusyError['reason'], CallOutcome>;

export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof AbortedCall) return 'aborted';
  if (error instanceof ProviderBusyError) return BUSY_OUTCOMES[error.reason];
  if (error instanceof GenerationError && error.outcome !== undefined) return error.outcome;
  if (error instanceof NetworkError || error instanceof AskAgainLater) return error.outcome;
  return 'network';
}

function describe(error: unknown): string {
  const cause = error instanceof AbortedCall ? error.original : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Every provider call of a job goes through here: the shared rate limiter and the provider's breaker
 * decide whether it may be sent at all, and each call leaves one metric sample and one line in the
 * job's log with its outcome and duration, so `pnpm queues job <id>` shows what the providers said.
 */
export class ProviderGateway {
  constructor(
    private readonly breakers: ProviderBreakers,
    private readonly metrics: WorkerMetrics,
    private readonly limiter: ProviderRateLimiter,
  ) {}

  /**
   * `turnTaken`: the caller took the call's turn already (`takeTurn`), before recording a paid call;
   * `model`: what the generation asked the provider for, said on the call's span.
   */
  call<T>(
    job: Job,
    signal: AbortSignal,
    provider: ProviderName,
    call: ProviderCall,
    action: (signal: AbortSignal) => Promise<T>,
    { turnTaken = false, model }: { turnTaken?: boolean; model?: string } = {},
  ): Promise<T> {
    const attributes = {
      [SPAN_ATTRIBUTES.provider]: provider,
      [SPAN_ATTRIBUTES.providerCall]: call,
      [SPAN_ATTRIBUTES.attempt]: job.attemptsMade + 1,
      ...(model === undefined ? {} : { [SPAN_ATTRIBUTES.model]: model }),
    };
    // One span per call (each poll its own), around the HTTP request's: the answer's status is set on it
    // by http.ts, the outcome here.
    return inSpan(`provider ${provider} ${call}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const result = await this.send(job, signal, provider, call, action, turnTaken);
        span.setAttribute(SPAN_ATTRIBUTES.outcome, 'ok');
        return result;
      } catch (error) {
        span.setAttribute(SPAN_ATTRIBUTES.outcome, outcomeOf(error));
        throw error;
      }
    });
  }

  private async send<T>(
    job: Job,
    signal: AbortSignal,
    provider: ProviderName,
    call: ProviderCall,
    action: (signal: AbortSignal) => Promise<T>,
    turnTaken: boolean,
  ): Promise<T> {
    signal.throwIfAborted();
    if (!turnTaken) await this.takeTurn(job, provider, call, signal);
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
      if (error instanceof ProviderBusyError && error.reason === 'rate_limited') {
        throw await this.holdBack(provider, error);
      }
      throw error instanceof AbortedCall ? signal.reason : error;
    }
  }

  /**
   * Waits for the call's turn in the provider's shared schedule; a call whose turn is far off is never
   * sent: the job goes back to its queue until then.
   */
  async takeTurn(job: Job, provider: ProviderName, call: ProviderCall, signal?: AbortSignal): Promise<void> {
    try {
      await this.limiter.acquire(provider, call, signal);
    } catch (error) {
      if (error instanceof ProviderBusyError) {
        this.metrics.providerCall(provider, call, 'throttled', undefined);
        await job
          .log(`${provider} ${call}: not sent, ${error.message}; back in ${error.retryAfterMs} ms`)
          .catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * The provider refused for rate: every process holds back for its documented lockout (or what it
   * asked for), not just this queue, and the queue pauses for as long.
   */
  private async holdBack(provider: ProviderName, refusal: ProviderBusyError): Promise<ProviderBusyError> {
    const pauseMs = this.limiter.pauseAfterRefusal(provider, refusal.retryAfterMs);
    await this.limiter.lockOut(provider, pauseMs);
    return new ProviderBusyError(provider, 'rate_limited', pauseMs, refusal.message);
  }
}

/** Whether a call's error says the provider is unwell (opens its breaker). */
export function isProviderFault(error: unknown, faults: ReadonlySet<CallOutcome>): boolean {
  return faults.has(outcomeOf(error));
}
