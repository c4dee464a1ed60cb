export * from './auth-emulator';
export * from './emulator-users';
export * from './redis';
export * from './chromium';
export * from './raw-http';
export * from './test-scale';
export * from './network-cut';
export * from './webhook-receiver';
