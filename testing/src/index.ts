export * from './auth-emulator';
export * from './emulator-users';
export * from './redis';
export * from './test-database';
