/** Test support for suites outside this package: a database of its own per test file, a real S3-protocol server. */
export { startTestS3Server, type TestS3Server } from './s3-test-server';
export { createTestDatabase, POSTGRES_ADMIN_URL, TEMPLATE_DATABASE_ENV, type TestDatabase } from './test-database';
