import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ArtifactUrlSigner } from '@mediagen/core';
import { DEV_ARTIFACT_URL_SECRET } from '../src/config';
import { connectUserSocket, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest } from './support/requests';
import { startStandInWorker } from './support/stand-in-worker';
import { createTestUser } from './support/users';

const PNG_BYTES = Uint8Array.from({ length: 4096 }, (_, index) => index % 251);

let context: TestContext;
let server: TestApp;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  worker = await startStandInWorker(context, 'image', { bytes: PNG_BYTES, mimeType: 'image/png' });
});
afterAll(async () => {
  await worker.close();
  await context.cleanup();
});

async function completedImage() {
  const user = await createTestUser();
  const api = apiClient(server.origin, user);
  const { socket, updates } = await connectUserSocket(server.origin, user.idToken);
  try {
    const { body } = await api.submit(imageRequest());
    const completed = await vi.waitUntil(
      async () => {
        const read = await api.get(body.id);
        return read.body.status === 'completed' ? read.body : undefined;
      },
      { timeout: 5000, interval: 25 },
    );
    await vi.waitUntil(() => updates.find((update) => update.status === 'completed'), { timeout: 5000, interval: 25 });
    return { api, generation: completed, updates };
  } finally {
    socket.close();
  }
}

describe('completed generations and signed artifact URLs', () => {
  it('shows the result with a signed URL that serves the bytes', async () => {
    const { generation, updates } = await completedImage();
    expect(generation).toMatchObject({ status: 'completed', progress: 100, result: { mimeType: 'image/png' } });
    const url = new URL(generation.result.url);
    expect(url.origin).toBe(server.origin);
    expect(url.pathname).toBe(`/artifacts/${generation.id}.png`);

    // The socket saw the job go through its states, with progress never going backwards.
    const mine = updates.filter((update) => update.id === generation.id);
    expect(mine.at(-1)).toMatchObject({ status: 'completed', progress: 100, result: { mimeType: 'image/png' } });
    const order = ['queued', 'active', 'completed'];
    const ranks = mine.map((update) => order.indexOf(update.status));
    expect(ranks).not.toContain(-1);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const progress = mine.map((update) => update.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(PNG_BYTES.length));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // The same link may serve another file after a plan change: browsers revalidate, cheaply.
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"image_[a-f0-9]{32}\.png"$/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG_BYTES);
    const revalidated = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(revalidated.status).toBe(304);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG_BYTES.length));
  });

  it('serves a single byte range as 206 and refuses an unsatisfiable one with 416', async () => {
    const { generation } = await completedImage();
    const partial = await fetch(generation.result.url, { headers: { range: 'bytes=100-199' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 100-199/${PNG_BYTES.length}`);
    expect(partial.headers.get('content-length')).toBe('100');
    expect(new Uint8Array(await partial.arrayBuffer())).toEqual(PNG_BYTES.slice(100, 200));

    const tail = await fetch(generation.result.url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(PNG_BYTES.slice(-10));

    const open = await fetch(generation.result.url, { headers: { range: 'bytes=4000-' } });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 4000-4095/${PNG_BYTES.length}`);
    await open.arrayBuffer();

    const beyond = await fetch(generation.result.url, { headers: { range: 'bytes=5000-6000' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${PNG_BYTES.length}`);
    await beyond.arrayBuffer();
  });

  it('refuses a tampered signature, another key under the same signature, and an expired link with 403', async () => {
    const { generation } = await completedImage();
    const url = new URL(generation.result.url);
    const sig = url.searchParams.get('sig')!;
    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const refused = await fetch(tampered);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');

    const longer = new URL(url);
    longer.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    expect((await fetch(longer)).status).toBe(403);

    const unsigned = new URL(url);
    unsigned.search = '';
    expect((await fetch(unsigned)).status).toBe(403);

    const signer = new ArtifactUrlSigner(DEV_ARTIFACT_URL_SECRET, 3600);
    const expiredPath = signer.signedPath(`${generation.id}.png`, Math.floor(Date.now() / 1000) - 1);
    const expired = await fetch(`${server.origin}${expiredPath}`);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toContain('expired');

    const stillValid = signer.signedPath(`${generation.id}.png`, Math.floor(Date.now() / 1000) + 60);
    expect((await fetch(`${server.origin}${stillValid}`)).status).toBe(200);
  });

  it('refuses a control character in exp or sig with 400 INVALID_REQUEST', async () => {
    const signer = new ArtifactUrlSigner(DEV_ARTIFACT_URL_SECRET, 3600);
    const link = new URL(`${server.origin}${signer.signedPath(`image_${'0'.repeat(32)}.png`)}`);
    for (const name of ['exp', 'sig']) {
      const controlled = new URL(link);
      controlled.searchParams.set(name, `${link.searchParams.get(name)}\u0000`);
      const response = await fetch(controlled);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    }
  });

  it('answers 404 for a validly signed link to a missing artifact', async () => {
    const signer = new ArtifactUrlSigner(DEV_ARTIFACT_URL_SECRET, 3600);
    const response = await fetch(`${server.origin}${signer.signedPath(`image_${'0'.repeat(32)}.png`)}`);
    expect(response.status).toBe(404);
  });

  it('refuses to cancel a completed generation with 409 and keeps its token spent', async () => {
    const { api, generation } = await completedImage();
    const response = await api.cancel(generation.id);
    expect(response.status).toBe(409);
    expect(response.body.error.message).toBe('This generation has already completed and can no longer be canceled.');
    expect((await api.get(generation.id)).body.status).toBe('completed');
    expect((await api.me()).body.tokens.image).toBe(0);
  });
});
