import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestS3Server, type TestS3Server } from '@mediagen/core/testing';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest } from './support/requests';
import { startStandInWorker } from './support/stand-in-worker';
import { createTestUser } from './support/users';

/**
 * ARTIFACT_STORE=s3 through the API: a result a worker put in the bucket is served at the same signed
 * links, with the same byte ranges, as one on disk, and goes with its generation.
 */
const PNG_BYTES = Uint8Array.from({ length: 4096 }, (_, index) => index % 251);

let s3: TestS3Server;
let context: TestContext;
let server: TestApp;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  s3 = await startTestS3Server();
  context = await createTestContext();
  server = await context.start(s3.env);
  worker = await startStandInWorker(context, 'image', { bytes: PNG_BYTES, mimeType: 'image/png' }, s3.env);
});
afterAll(async () => {
  await worker?.close();
  await context?.cleanup();
  await s3?.close();
});

describe('artifacts kept in an S3 bucket', () => {
  it('are served at their signed URL, whole and by range, and deleted with their generation', async () => {
    const api = apiClient(server.origin, await createTestUser());
    const { body } = await api.submit(imageRequest());
    const generation = await vi.waitUntil(
      async () => {
        const read = await api.get(body.id);
        return read.body.status === 'completed' ? read.body : undefined;
      },
      { timeout: 5000, interval: 25 },
    );
    const key = `${generation.id}.png`;
    expect(await s3.keys()).toContain(`artifacts/${key}`);
    expect(await readdir(context.config().artifactsDir).catch(() => [])).toEqual([]);

    const whole = await fetch(generation.result.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(PNG_BYTES.length));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(PNG_BYTES);

    const partial = await fetch(generation.result.url, { headers: { range: 'bytes=100-199' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-type')).toBe('image/png');
    expect(partial.headers.get('content-range')).toBe(`bytes 100-199/${PNG_BYTES.length}`);
    expect(partial.headers.get('content-length')).toBe('100');
    expect(new Uint8Array(await partial.arrayBuffer())).toEqual(PNG_BYTES.slice(100, 200));

    const tail = await fetch(generation.result.url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(PNG_BYTES.slice(-10));

    const beyond = await fetch(generation.result.url, { headers: { range: 'bytes=5000-6000' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${PNG_BYTES.length}`);
    await beyond.arrayBuffer();

    expect((await api.remove(generation.id)).status).toBe(204);
    expect(await s3.keys()).not.toContain(`artifacts/${key}`);
    expect((await fetch(generation.result.url)).status).toBe(404);
  });
});
