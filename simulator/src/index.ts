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
export { DEFAULT_STRIPE_PRICES, type StripePriceSpec } from './stripe/stripeCatalogue';
export { DEFAULT_WEBHOOK_SECRET, type StripeControl, type StripeOptions } from './stripe/stripeStandIn';
export type { RenewalPayment } from './stripe/stripeAccount';
export type {
  DeliveryAttempt,
  EventDeliveries,
  ReleaseOrder,
  WebhookDeliveryMode,
  WebhookEndpoint,
  WebhookRetry,
} from './stripe/webhookDispatcher';
