import { PROVIDER_ROUTES, type ProviderRoute, type SimulatorStats } from './types';

export class StatsCounter {
  private requests = emptyRouteCounts();
  private rateLimited = emptyRouteCounts();
  private videoTasksCreated = 0;
  private lockouts = 0;

  countRequest(route: ProviderRoute): void {
    this.requests[route] += 1;
  }

  countVideoTask(): void {
    this.videoTasksCreated += 1;
  }

  /** A request refused by an enforced rate limit; `lockedOut` when it started the key's lockout. */
  countRateLimited(route: ProviderRoute, lockedOut: boolean): void {
    this.rateLimited[route] += 1;
    if (lockedOut) this.lockouts += 1;
  }

  reset(): void {
    this.requests = emptyRouteCounts();
    this.rateLimited = emptyRouteCounts();
    this.videoTasksCreated = 0;
    this.lockouts = 0;
  }

  snapshot(): SimulatorStats {
    return {
      requests: { ...this.requests },
      videoTasksCreated: this.videoTasksCreated,
      rateLimited: { ...this.rateLimited },
      lockouts: this.lockouts,
    };
  }
}

function emptyRouteCounts(): Record<ProviderRoute, number> {
  return Object.fromEntries(PROVIDER_ROUTES.map((route) => [route, 0])) as Record<ProviderRoute, number>;
}
