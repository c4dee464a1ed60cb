import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../src';

interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
}
interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Set by `run`. */
  httpServer: Server;
}
// s3rver ships no types; this is the part of it the tests use.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rver;

export interface TestS3Server {
  /** A bucket made for the test on this server. */
  settings: S3Settings;
  /** The same settings as environment variables, for a server or worker config. */
  env: Record<string, string>;
  /** For looking into the bucket behind the store's back. */
  client: S3Client;
  /** Every request the server received, as `METHOD /path?query`, oldest first. */
  requests: string[];
  /** The keys in the bucket now (up to 1000). */
  keys(): Promise<string[]>;
  /** Stops the server and removes everything it stored. */
  close(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on a free loopback port, keeping its objects in a directory of its own. */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'mediagen-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const requests: string[] = [];
  server.httpServer.on('request', (request: { method?: string; url?: string }) => {
    requests.push(`${request.method} ${request.url}`);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver checks signatures against this fixed pair.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const settings: S3Settings = {
    bucket: 'mediagen-test-artifacts',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    keyPrefix: 'artifacts/',
    credentials,
  };
  const client = new S3Client({ region: settings.region, endpoint, forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  return {
    settings,
    env: {
      ARTIFACT_STORE: 's3',
      S3_BUCKET: settings.bucket,
      S3_REGION: settings.region,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_KEY_PREFIX: settings.keyPrefix,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    client,
    requests,
    async keys() {
      const listing = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket }));
      return (listing.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
