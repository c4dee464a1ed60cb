export * from './api-keys/api-key-format';
export * from './api-keys/api-keys';
export * from './artifacts/artifact-store';
export * from './artifacts/artifact-urls';
export * from './artifacts/artifact-store-config';
export * from './artifacts/file-artifact-store';
// Only the type: the S3 store (and the AWS SDK) load when createArtifactStore asks for them.
export type { S3Settings } from './artifacts/s3-artifact-store';
export * from './cancel-signals';
export * from './config/common-settings';
export * from './config/billing-settings';
export * from './config/plan-settings';
export * from './config/redis-settings';
export * from './config/env-reader';
export * from './db/database';
export * from './db/migrate';
export * from './db/schema';
export * from './lifecycle/account-closure';
export {
  AccountClosedError,
  type AccountBalance,
  type PlanChangeCause,
  type PlanChangeResult,
} from './lifecycle/accounts';
export * from './lifecycle/account-updates';
export * from './billing/billing-provider';
export * from './billing/billing-record';
export * from './billing/sales-requests';
export * from './lifecycle/email-hash';
export * from './lifecycle/generation-events';
export * from './lifecycle/generation-lifecycle';
export type { SubmitInput, SubmitOutcome } from './lifecycle/generation-submissions';
export type { CancelActor } from './lifecycle/generation-transitions';
export type { RetryOutcome } from './lifecycle/operator-retry';
export type { TransitionOutcome } from './lifecycle/transition-statement';
export * from './lifecycle/generation-record';
export * from './natural-batches';
export * from './progress/progress-channel';
export * from './queue/generation-jobs';
export * from './queue/job-owner';
export * from './queue/plan-change';
export * from './reads/generation-reads';
export type { ArtifactOwnership } from './reads/artifact-reads';
export type { HistoryPosition, HistoryQuery, HistoryRows } from './reads/history-reads';
export type { SubmittedRequest } from './reads/live-update-reads';
export type { AgingCandidates, PlaceInLine } from './reads/queue-line-reads';
export type { UnfinishedStatus, UntouchedGeneration } from './reads/unfinished-reads';
export * from './recent-run-times';
export * from './redis';
export * from './redis-endpoint';
export * from './redis-keys';
export * from './spend/price-table';
export * from './spend/provider-credit';
export * from './spend/spend-controls';
export * from './spend/spend-ledger';
export * from './support/support-answers';
export * from './support/support-mail';
export * from './support/support-requests';
export * from './views/generation-view';
export * from './views/submission';
export * from './webhooks/webhooks';
export * from './config/tracing-settings';
export * from './tracing/queue-telemetry';
export * from './tracing/spans';
export * from './tracing/tracing-state';
