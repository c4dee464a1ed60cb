import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newGenerationId } from '../src';
import { S3ArtifactStore } from '../src/artifacts/s3-artifact-store';
import { describeArtifactStore, generatedVideo } from './support/artifact-store-contract';
import { startTestS3Server, type TestS3Server } from './support/s3-test-server';

let s3: TestS3Server;
let store: S3ArtifactStore;

beforeAll(async () => {
  s3 = await startTestS3Server();
  store = new S3ArtifactStore(s3.settings);
});
afterAll(() => s3?.close());

describeArtifactStore('S3ArtifactStore', () => store);

describe('S3ArtifactStore in its bucket', () => {
  it('keeps each artifact under the key prefix, with the type it is served as', async () => {
    const { key } = await store.save(newGenerationId('speech'), new Uint8Array(10), 'audio/x-wav');
    expect(await s3.keys()).toContain(`artifacts/${key}`);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: `artifacts/${key}` }));
    expect(head).toMatchObject({ ContentType: 'audio/wav', ContentLength: 10 });
  });

  it('uploads a long video in parts while it is still being read, never holding it whole', async () => {
    const id = newGenerationId('video');
    const video = generatedVideo(20);
    const partUploads = () =>
      s3.requests.filter(
        (request) => request.startsWith('PUT') && request.includes(id) && request.includes('partNumber='),
      );
    let partsBeforeTheEnd = 0;
    // The last MiB is handed over only once the bucket has begun to receive parts: a store that read the
    // whole stream before uploading would wait here until the timeout.
    async function* gated() {
      let read = 0;
      for await (const chunk of video.stream) {
        read += (chunk as Buffer).byteLength;
        if (read === video.bytes) {
          await vi.waitUntil(() => partUploads().length > 0, { timeout: 3000, interval: 20 });
          partsBeforeTheEnd = partUploads().length;
        }
        yield chunk as Buffer;
      }
    }

    const stored = await store.save(id, Readable.from(gated()), 'video/mp4');
    expect(partsBeforeTheEnd).toBeGreaterThan(0);
    expect(partUploads()).toHaveLength(3); // 8 + 8 + 4 MiB
    expect(stored.bytes).toBe(video.bytes);
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: `artifacts/${stored.key}` }),
    );
    expect(head).toMatchObject({ ContentType: 'video/mp4', ContentLength: video.bytes });
  });

  it('leaves the bucket as it was once an artifact is removed', async () => {
    const before = await s3.keys();
    const { key } = await store.save(newGenerationId('image'), new Uint8Array([1, 2, 3]), 'image/png');
    await store.remove(key);
    expect(await s3.keys()).toEqual(before);
  });
});
