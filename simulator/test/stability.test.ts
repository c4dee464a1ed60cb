import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { imageBody, postJson, startSimulator } from './helpers';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface ArtifactsResponse {
  artifacts: { base64: string; seed: number; finishReason: string }[];
}

async function generate(url: string, overrides: Record<string, unknown> = {}): Promise<ArtifactsResponse> {
  const response = await postJson(
    `${url}/v1/generation/stable-diffusion-xl-1024-v1-0/text-to-image`,
    imageBody(overrides),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ArtifactsResponse;
}

describe('Stability text-to-image', () => {
  it('returns one PNG of the requested size per sample', async () => {
    const { url } = await startSimulator();
    const { artifacts } = await generate(url, { samples: 2 });

    expect(artifacts).toHaveLength(2);
    for (const artifact of artifacts) {
      const bytes = Buffer.from(artifact.base64, 'base64');
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const png = PNG.sync.read(bytes);
      expect([png.width, png.height]).toEqual([256, 192]);
      expect(artifact.finishReason).toBe('SUCCESS');
    }
    expect(artifacts.map((artifact) => artifact.seed)).toEqual([1234, 1235]);
  });

  it('gives identical bytes for the same prompt and seed, different ones for another seed or prompt', async () => {
    const { url } = await startSimulator();
    const [first] = (await generate(url)).artifacts;
    const [again] = (await generate(url)).artifacts;
    const [otherSeed] = (await generate(url, { seed: 99 })).artifacts;
    const [otherPrompt] = (await generate(url, { text_prompts: [{ text: 'a forest', weight: 1 }] })).artifacts;

    expect(again?.base64).toBe(first?.base64);
    expect(otherSeed?.base64).not.toBe(first?.base64);
    expect(otherPrompt?.base64).not.toBe(first?.base64);
  });

  it('reports the seed it chose when asked for seed 0', async () => {
    const { url } = await startSimulator();
    const [artifact] = (await generate(url, { seed: 0 })).artifacts;
    expect(artifact?.seed).toBeGreaterThan(0);
  });

  it('renders 1024x1024 quickly', async () => {
    const { url } = await startSimulator();
    const started = performance.now();
    await generate(url, { width: 1024, height: 1024 });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('answers 401 in Stability style without a key', async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}/v1/generation/any/text-to-image`, imageBody(), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      id: expect.any(String),
      name: 'unauthorized',
      message: 'missing authorization header',
    });
  });

  it.each([
    ['empty text_prompts', { text_prompts: [] }, 'invalid_prompts'],
    ['a prompt without text', { text_prompts: [{ weight: 1 }] }, 'invalid_prompts'],
    ['width not a multiple of 64', { width: 500 }, 'bad_request'],
    ['height above 2048', { height: 4096 }, 'bad_request'],
    ['too many pixels', { width: 2048, height: 2048 }, 'bad_request'],
    ['11 samples', { samples: 11 }, 'bad_request'],
    ['an unknown style preset', { style_preset: 'watercolour' }, 'bad_request'],
    ['an unknown sampler', { sampler: 'K_MAGIC' }, 'bad_request'],
  ])('rejects %s with 400 %s', async (_case, overrides, name) => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}/v1/generation/any/text-to-image`, imageBody(overrides));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: expect.any(String), name, message: expect.any(String) });
  });

  it('answers a body that is not JSON in Stability style', async () => {
    const { url } = await startSimulator();
    const response = await fetch(`${url}/v1/generation/any/text-to-image`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'bad_request' });
  });
});
