/**
 * The server's test harness, for suites outside this package (faults/): an app on a database, Redis
 * prefix and data directory of its own, Auth emulator users, and real workers beside it.
 */
export {
  REDIS_URL,
  bearer,
  connectUserSocket,
  createTestContext,
  type TestApp,
  type TestContext,
  type TestSocket,
} from './app';
export { createTestUser, signIn, type TestUser } from './users';
export { startTestWorkers } from './workers';
