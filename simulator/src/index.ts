export { createSimulator } from './simulator';
export { createDevelopmentCertificate, type DevelopmentCertificate } from './tls/development-certificate';
export { DOCUMENTED_RATE_LIMITS } from './types';
export type {
  FaultKind,
  FaultRule,
  RateLimitRule,
  RateLimits,
  RealtimeResponseRecord,
  RealtimeSessionRecord,
  Simulator,
  SimulatorOptions,
  SimulatorStats,
} from './types';
