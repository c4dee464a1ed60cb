import { afterEach, describe, expect, it } from 'vitest';
import { ONE_PIXEL_PNG_BASE64, stableImage } from '@mediagen/simulator/documented-examples';
import { buildStableImageForm } from '@mediagen/shared';
import { GenerationError } from '../../src/generation-error';
import { ProviderOutOfCreditError } from '../../src/providers/out-of-credit-error';
import { StableImageClient } from '../../src/providers/stable-image-client';
import { ReplayServer, type RecordedRequest } from './replay-server';

/**
 * Stability's v2beta Stable Image answers (its reference and OpenAPI, sources in the simulator's
 * documented examples) served to the real client: what it sends must be the documented form fields.
 */
const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

const PNG = Buffer.from(ONE_PIXEL_PNG_BASE64, 'base64');

async function replaying(path: string, reply: { status: number; body: unknown; headers?: Record<string, string> }) {
  const server = new ReplayServer().reply(path, reply);
  servers.push(server);
  await server.start();
  return server;
}

async function formOf(sent: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(sent.body as Buffer), {
    headers: { 'content-type': String(sent.headers['content-type']) },
  }).formData();
}

const client = (server: ReplayServer) =>
  new StableImageClient({ baseUrl: server.url, apiKey: 'sk-test', timeoutMs: 5000 });

describe(`Stability v2beta Stable Image (${stableImage.core.source})`, () => {
  it.each([
    ['core', 'stable-image-core', stableImage.requestFields.core],
    ['sd3', 'sd3.5-large', stableImage.requestFields.sd3],
    ['ultra', 'stable-image-ultra', stableImage.requestFields.ultra],
  ] as const)(
    'sends generate/%s only documented multipart fields and reads the image bytes',
    async (endpoint, model, fields) => {
      const path = `/v2beta/stable-image/generate/${endpoint}`;
      const server = await replaying(path, {
        status: 200,
        body: PNG,
        headers: { 'content-type': 'image/png', 'finish-reason': 'SUCCESS', seed: '42' },
      });
      const form = buildStableImageForm(
        'A lighthouse on a cliff',
        { aspectRatio: '16:9', negativePrompt: 'fog' },
        42,
        model,
      );
      const image = await client(server).generate(endpoint, form);
      expect(image).toEqual({ png: PNG, seed: 42 });
      const [sent] = server.requests;
      expect(sent).toMatchObject({ method: 'POST', path });
      expect(sent!.headers).toMatchObject({ authorization: 'Bearer sk-test', accept: 'image/*' });
      expect(String(sent!.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      const names = [...(await formOf(sent!)).keys()];
      expect(names.filter((name) => !(fields as readonly string[]).includes(name))).toEqual([]);
      expect(names).toContain('aspect_ratio');
    },
  );

  it(`sends the fast upscaler the image as a file (${stableImage.fastUpscale.source})`, async () => {
    const server = await replaying(stableImage.fastUpscale.path, {
      status: 200,
      body: PNG,
      headers: { 'content-type': 'image/png', 'finish-reason': 'SUCCESS', seed: '0' },
    });
    await client(server).upscale(PNG);
    const form = await formOf(server.requests[0]!);
    expect([...form.keys()].filter((name) => !stableImage.requestFields.fastUpscale.includes(name as never))).toEqual(
      [],
    );
    const file = form.get('image') as File;
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
  });

  it('reads CONTENT_FILTERED as no image, paid for; the 403 of content moderation as no image, not charged', async () => {
    const filtered = await replaying(stableImage.core.path, {
      status: 200,
      body: PNG,
      headers: { 'content-type': 'image/png', 'finish-reason': 'CONTENT_FILTERED', seed: '1' },
    });
    const form = buildStableImageForm('x', {}, 1, 'stable-image-core');
    await expect(client(filtered).generate('core', form)).rejects.toMatchObject({
      code: 'IMAGE_NOT_GENERATED',
      outcome: 'content_refused',
      retryable: false,
    });
    const moderated = await replaying(stableImage.core.path, {
      status: stableImage.contentModeration.status,
      body: stableImage.contentModeration.body,
    });
    const error = await client(moderated)
      .generate('core', form)
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(GenerationError);
    expect(error).toMatchObject({ code: 'IMAGE_NOT_GENERATED', outcome: 'http_4xx', retryable: false });
  });

  it('reads a 400 as a permanent provider error with its errors, and insufficient_balance as out of credit', async () => {
    const bad = await replaying(stableImage.core.path, { status: 400, body: stableImage.badRequest.body });
    const form = buildStableImageForm('x', {}, 1, 'stable-image-core');
    await expect(client(bad).generate('core', form)).rejects.toMatchObject({
      code: 'IMAGE_PROVIDER_ERROR',
      message: 'Stability AI error: some-field: is required',
      retryable: false,
    });
    const broke = await replaying(stableImage.core.path, {
      status: 429,
      body: {
        id: 'x',
        name: 'insufficient_balance',
        errors: ['Your organization does not have enough balance to request this action.'],
      },
    });
    await expect(client(broke).generate('core', form)).rejects.toBeInstanceOf(ProviderOutOfCreditError);
  });
});
