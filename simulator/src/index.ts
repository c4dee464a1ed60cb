export { createSimulator } from './simulator';
export { createDevelopmentCertificate, type DevelopmentCertificate } from './tls/development-certificate';
export { faultsOfRoute } from './faults/faultCatalogue';
export { DOCUMENTED_RATE_LIMITS, PROVIDER_ROUTES } from './types';
export type {
  FaultKind,
  FaultRule,
  ImageRequestRecord,
  ProviderRoute,
  RateLimitRule,
  RateLimits,
  RealtimeResponseRecord,
  RealtimeSessionRecord,
  Simulator,
  SimulatorOptions,
  SimulatorStats,
  StableImageRequestRecord,
  VideoTaskRecord,
} from './types';
