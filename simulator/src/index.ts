export { createSimulator } from './simulator';
export { DOCUMENTED_RATE_LIMITS } from './types';
export type {
  FaultKind,
  FaultRule,
  RateLimitRule,
  RateLimits,
  Simulator,
  SimulatorOptions,
  SimulatorStats,
} from './types';
