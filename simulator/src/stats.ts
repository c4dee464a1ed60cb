import { PROVIDER_ROUTES, type ProviderRoute, type SimulatorStats } from './types';

export class StatsCounter {
  private requests = emptyRequestCounts();
  private videoTasksCreated = 0;

  countRequest(route: ProviderRoute): void {
    this.requests[route] += 1;
  }

  countVideoTask(): void {
    this.videoTasksCreated += 1;
  }

  reset(): void {
    this.requests = emptyRequestCounts();
    this.videoTasksCreated = 0;
  }

  snapshot(): SimulatorStats {
    return { requests: { ...this.requests }, videoTasksCreated: this.videoTasksCreated };
  }
}

function emptyRequestCounts(): Record<ProviderRoute, number> {
  return Object.fromEntries(PROVIDER_ROUTES.map((route) => [route, 0])) as Record<ProviderRoute, number>;
}
