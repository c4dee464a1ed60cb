import CircuitBreaker from 'opossum';
import type { BreakerSettings } from '../config';
import type { BreakerStateName } from '../observability/worker-metrics';
import { PROVIDERS, type ProviderName } from './provider-calls';

export interface BreakerListener {
  (provider: ProviderName, state: BreakerStateName): void;
}

/**
 * One opossum breaker per provider, shared by every job of this process. It only counts the failures
 * `countsAsFailure` says are the provider's fault (5xx, network, timeout, malformed); refusals, 429s and
 * our own aborts pass through without moving it. opossum's own timeout is off: every client call has
 * its own explicit budget already.
 */
export class ProviderBreakers {
  private readonly breakers = new Map<ProviderName, CircuitBreaker<[() => Promise<unknown>], unknown>>();
  private readonly openedAt = new Map<ProviderName, number>();

  constructor(
    private readonly settings: BreakerSettings,
    countsAsFailure: (error: unknown) => boolean,
    onChange: BreakerListener,
  ) {
    for (const provider of PROVIDERS) {
      const breaker = new CircuitBreaker((action: () => Promise<unknown>) => action(), {
        name: provider,
        timeout: false,
        errorThresholdPercentage: settings.failureThresholdPercent,
        volumeThreshold: settings.volumeThreshold,
        rollingCountTimeout: settings.windowMs,
        rollingCountBuckets: 10,
        resetTimeout: settings.cooldownMs,
        errorFilter: (error: unknown) => !countsAsFailure(error),
      });
      breaker.on('open', () => {
        this.openedAt.set(provider, Date.now());
        onChange(provider, 'open');
      });
      breaker.on('halfOpen', () => onChange(provider, 'half_open'));
      breaker.on('close', () => {
        this.openedAt.delete(provider);
        onChange(provider, 'closed');
      });
      this.breakers.set(provider, breaker);
    }
  }

  /** Runs `action` through the provider's breaker; rejects with an EOPENBREAKER error while it is open. */
  fire<T>(provider: ProviderName, action: () => Promise<T>): Promise<T> {
    return this.breakers.get(provider)!.fire(action) as Promise<T>;
  }

  state(provider: ProviderName): BreakerStateName {
    const breaker = this.breakers.get(provider)!;
    if (breaker.opened) return 'open';
    if (breaker.halfOpen) return 'half_open';
    return 'closed';
  }

  /**
   * How long until the breaker lets a trial call through. While half-open with the trial still in
   * flight, other calls are refused too; they wait a short while for its verdict.
   */
  retryAfterMs(provider: ProviderName): number {
    const openedAt = this.openedAt.get(provider);
    const floor = Math.min(1000, this.settings.cooldownMs);
    if (openedAt === undefined) return floor;
    return Math.max(floor, openedAt + this.settings.cooldownMs - Date.now());
  }

  shutdown(): void {
    for (const breaker of this.breakers.values()) breaker.shutdown();
  }
}

export function isOpenBreakerError(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === 'EOPENBREAKER';
}
