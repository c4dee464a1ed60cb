export * from './artifact-store';
export * from './cancellation';
export * from './generation-queues';
export * from './orphaned-charges';
export * from './quota-ledger';
export * from './recent-run-times';
export * from './redis';
export * from './redis-keys';
