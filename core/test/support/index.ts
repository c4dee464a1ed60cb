/** Test support for suites outside this package (server/): a real S3-protocol server with a bucket. */
export { startTestS3Server, type TestS3Server } from './s3-test-server';
