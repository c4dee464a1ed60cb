import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { shapeOf, stableImage } from '../src/contract/documented-examples';
import { AUTH, startSimulator } from './helpers';

function form(fields: Record<string, string | Blob>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

function post(url: string, body: FormData, headers: Record<string, string> = { ...AUTH, accept: 'image/*' }) {
  return fetch(url, { method: 'POST', headers, body });
}

async function sizeOf(response: Response): Promise<{ width: number; height: number }> {
  const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
  return { width: png.width, height: png.height };
}

// Each test renders megapixel PNGs, which take seconds on a loaded machine.
describe('Stability v2beta Stable Image', { timeout: 30_000 }, () => {
  it.each([stableImage.core, stableImage.sd3, stableImage.ultra])(
    'accepts the reference example of $path and answers an image with its finish reason and seed',
    async (example) => {
      const { url } = await startSimulator();
      const response = await post(`${url}${example.path}`, form(example.form));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(stableImage.finishReasons.values).toContain(response.headers.get('finish-reason'));
      expect(Number(response.headers.get('seed'))).toBeGreaterThan(0);
    },
  );

  it(`answers application/json as { image, finish_reason, seed } (${stableImage.jsonResponse.source})`, async () => {
    const { url } = await startSimulator();
    const response = await post(`${url}${stableImage.core.path}`, form(stableImage.core.form), {
      ...AUTH,
      accept: 'application/json',
    });
    expect(shapeOf(await response.json())).toEqual(shapeOf(stableImage.jsonResponse.body));
  });

  it('renders each aspect ratio at its shape and records what it was sent', async () => {
    const simulator = await startSimulator();
    const response = await post(
      `${simulator.url}/v2beta/stable-image/generate/core`,
      form({
        prompt: 'a lighthouse',
        negative_prompt: 'fog',
        aspect_ratio: '16:9',
        style_preset: 'anime',
        seed: '42',
        output_format: 'png',
      }),
    );
    expect(await sizeOf(response)).toEqual({ width: 1664, height: 960 });
    expect(simulator.stableImageRequests()).toEqual([
      {
        endpoint: 'generate/core',
        prompt: 'a lighthouse',
        negative_prompt: 'fog',
        aspect_ratio: '16:9',
        style_preset: 'anime',
        seed: 42,
        output_format: 'png',
        accept: 'image/*',
      },
    ]);
    const ultra = await post(
      `${simulator.url}/v2beta/stable-image/generate/ultra`,
      form({ prompt: 'a lighthouse', aspect_ratio: '1:1' }),
    );
    expect(await sizeOf(ultra)).toEqual({ width: 1024, height: 1024 });
  });

  it(`refuses what an endpoint does not take in the documented error shape (${stableImage.badRequest.source})`, async () => {
    const { url } = await startSimulator();
    for (const [path, fields] of [
      ['/v2beta/stable-image/generate/ultra', { prompt: 'x', style_preset: 'anime' }],
      ['/v2beta/stable-image/generate/sd3', { prompt: 'x', model: 'sd3.5-large-turbo', negative_prompt: 'fog' }],
      ['/v2beta/stable-image/generate/core', { prompt: 'x', aspect_ratio: '7:3' }],
      ['/v2beta/stable-image/generate/core', { aspect_ratio: '1:1' }],
    ] as const) {
      const response = await post(`${url}${path}`, form(fields));
      expect(response.status).toBe(400);
      expect(shapeOf(await response.json())).toEqual(shapeOf(stableImage.badRequest.body));
    }
    const unauthorized = await post(`${url}${stableImage.core.path}`, form(stableImage.core.form), {});
    expect(unauthorized.status).toBe(401);
  });

  it('marks a filtered image CONTENT_FILTERED and answers an organization out of credit with its 429', async () => {
    const { url } = await startSimulator({
      faults: [
        { route: 'image', fault: 'content-filtered', times: 1 },
        { route: 'image', fault: 'insufficient-balance', times: 1 },
      ],
    });
    const filtered = await post(`${url}${stableImage.core.path}`, form(stableImage.core.form));
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get('finish-reason')).toBe('CONTENT_FILTERED');
    const broke = await post(`${url}${stableImage.core.path}`, form(stableImage.core.form));
    expect(broke.status).toBe(429);
    expect(await broke.json()).toMatchObject({
      name: 'insufficient_balance',
      errors: ['Your organization does not have enough balance to request this action.'],
    });
  });

  it('upscales four times each side, 1024² to a 4096² PNG, within the fast upscaler input limits', async () => {
    const simulator = await startSimulator();
    const generated = await post(
      `${simulator.url}/v2beta/stable-image/generate/ultra`,
      form({ prompt: 'a lighthouse', aspect_ratio: '1:1', output_format: 'png' }),
    );
    const image = new Blob([await generated.arrayBuffer()], { type: 'image/png' });
    const upscaled = await post(
      `${simulator.url}${stableImage.fastUpscale.path}`,
      form({ image, output_format: 'png' }),
    );
    expect(upscaled.status).toBe(200);
    expect(await sizeOf(upscaled)).toEqual({ width: 4096, height: 4096 });
    expect(simulator.stableImageRequests().at(-1)).toEqual({
      endpoint: 'upscale/fast',
      output_format: 'png',
      accept: 'image/*',
      image: { width: 1024, height: 1024 },
    });
    expect(simulator.stats().requests.upscale).toBe(1);

    const core = await post(
      `${simulator.url}/v2beta/stable-image/generate/core`,
      form({ prompt: 'a lighthouse', output_format: 'png' }),
    );
    const tooLarge = await post(
      `${simulator.url}${stableImage.fastUpscale.path}`,
      form({ image: new Blob([await core.arrayBuffer()], { type: 'image/png' }) }),
    );
    expect(tooLarge.status).toBe(400);
    // A 16-megapixel PNG is encoded on a machine that may be shared.
  }, 60_000);
});
