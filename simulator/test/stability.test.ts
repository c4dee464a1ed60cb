import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { AUTH, SD16_PATH, SDXL_PATH, getWithKey, imageBody, postJson, startSimulator } from './helpers';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface ArtifactsResponse {
  artifacts: { base64: string; seed: number; finishReason: string }[];
}

async function generate(
  url: string,
  overrides: Record<string, unknown> = {},
  path = SDXL_PATH,
): Promise<ArtifactsResponse> {
  const response = await postJson(`${url}${path}`, imageBody(overrides));
  expect(response.status).toBe(200);
  return (await response.json()) as ArtifactsResponse;
}

describe('Stability text-to-image', () => {
  it('returns one PNG of the requested size per sample', async () => {
    const { url } = await startSimulator();
    const { artifacts } = await generate(url, { samples: 2, width: 384, height: 320 }, SD16_PATH);

    expect(artifacts).toHaveLength(2);
    for (const artifact of artifacts) {
      const bytes = Buffer.from(artifact.base64, 'base64');
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const png = PNG.sync.read(bytes);
      expect([png.width, png.height]).toEqual([384, 320]);
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

  it('answers 401 in Stability style without a key', async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${SDXL_PATH}`, imageBody(), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      id: expect.any(String),
      name: 'unauthorized',
      message: 'missing authorization header',
    });
  });

  it.each([
    ['empty text_prompts', SDXL_PATH, { text_prompts: [] }, 'invalid_prompts'],
    ['a prompt without text', SDXL_PATH, { text_prompts: [{ weight: 1 }] }, 'invalid_prompts'],
    ['a prompt over 2000 characters', SDXL_PATH, { text_prompts: [{ text: 'a'.repeat(2001) }] }, 'invalid_prompts'],
    ['width not a multiple of 64', SDXL_PATH, { width: 500 }, 'bad_request'],
    ['height above 2048', SDXL_PATH, { height: 4096 }, 'bad_request'],
    ['an SDXL size not in its list', SDXL_PATH, { width: 1024, height: 768 }, 'invalid_sdxl_v1_dimensions'],
    ['an SD 1.6 side above 1536', SD16_PATH, { width: 2048, height: 512 }, 'invalid_height_or_width'],
    ['11 samples', SDXL_PATH, { samples: 11 }, 'bad_request'],
    ['an unknown style preset', SDXL_PATH, { style_preset: 'watercolour' }, 'bad_request'],
    ['an unknown sampler', SDXL_PATH, { sampler: 'K_MAGIC' }, 'bad_request'],
  ])('rejects %s with 400 %s', async (_case, path, overrides, name) => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${path}`, imageBody(overrides));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: expect.any(String), name, message: expect.any(String) });
  });

  it('answers a body that is not JSON in Stability style', async () => {
    const { url } = await startSimulator();
    const response = await fetch(`${url}${SDXL_PATH}`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'bad_request' });
  });
});

describe('Stability engines, content filter and rate limit', () => {
  it('answers 404 not_found for engine ids Stability no longer serves', async () => {
    const { url } = await startSimulator();
    for (const engine of ['stable-diffusion-512-v2-1', 'stable-diffusion-xl-beta-v2-2-2', 'any']) {
      const response = await postJson(`${url}/v1/generation/${engine}/text-to-image`, imageBody());
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ id: expect.any(String), name: 'not_found' });
    }
  });

  it('renders every one of the nine SDXL sizes', async () => {
    const { url } = await startSimulator();
    for (const [width, height] of [
      [1152, 896],
      [640, 1536],
    ]) {
      const [artifact] = (await generate(url, { width, height })).artifacts;
      const png = PNG.sync.read(Buffer.from(artifact!.base64, 'base64'));
      expect([png.width, png.height]).toEqual([width, height]);
    }
  });

  it('content-filtered answers 200 with the image withheld as CONTENT_FILTERED', async () => {
    const { url } = await startSimulator({ faults: [{ route: 'image', fault: 'content-filtered', times: 1 }] });
    const [filtered] = (await generate(url)).artifacts;
    expect(filtered).toMatchObject({ finishReason: 'CONTENT_FILTERED', base64: expect.any(String) });
    expect((await generate(url)).artifacts[0]!.finishReason).toBe('SUCCESS');
  });

  it('lets a key make 150 requests per 10 s, then answers 429 and locks it out, other keys untouched', async () => {
    const simulator = await startSimulator();
    const statuses = await Promise.all(
      Array.from({ length: 150 }, () => postJson(`${simulator.url}${SDXL_PATH}`, imageBody()).then((r) => r.status)),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);

    const over = await postJson(`${simulator.url}${SDXL_PATH}`, imageBody());
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ id: expect.any(String), name: 'rate_limit_exceeded' });
    expect((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody())).status).toBe(429);
    expect(
      (await postJson(`${simulator.url}${SDXL_PATH}`, imageBody(), { authorization: 'Bearer other' })).status,
    ).toBe(200);
    expect(simulator.stats()).toMatchObject({ lockouts: 1, rateLimited: { image: 2 } });
  });

  it('keeps a locked-out key out for the whole lockout, though its window has room again', async () => {
    const { url } = await startSimulator({ rateLimits: { stability: { max: 2, windowMs: 200, lockoutMs: 1000 } } });
    const send = () => postJson(`${url}${SDXL_PATH}`, imageBody()).then((response) => response.status);
    expect([await send(), await send(), await send()]).toEqual([200, 200, 429]);
    const lockedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await send()).toBe(429);
    await expect.poll(send, { timeout: 2000, interval: 50 }).toBe(200);
    expect(performance.now() - lockedAt).toBeGreaterThanOrEqual(900);
  });
});

describe('Stability account balance', () => {
  it('answers GET /v1/user/balance with the credits, and 401 without a key', async () => {
    const { url } = await startSimulator();
    const balance = await getWithKey(`${url}/v1/user/balance`);
    expect(balance.status).toBe(200);
    expect(await balance.json()).toEqual({ credits: expect.any(Number) });
    expect((await fetch(`${url}/v1/user/balance`)).status).toBe(401);
  });

  it('insufficient-balance: text-to-image answers 429 insufficient_balance (not a lockout), the balance 0 credits', async () => {
    const simulator = await startSimulator({
      faults: [
        { route: 'image', fault: 'insufficient-balance', times: 1 },
        { route: 'balance', fault: 'insufficient-balance', times: 1 },
      ],
    });
    const refused = await postJson(`${simulator.url}${SDXL_PATH}`, imageBody(), AUTH);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      id: expect.any(String),
      name: 'insufficient_balance',
      message: 'Your organization does not have enough balance to request this action.',
    });
    expect(await (await getWithKey(`${simulator.url}/v1/user/balance`)).json()).toEqual({ credits: 0 });
    // Credit bought: both answer as usual again.
    expect((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody(), AUTH)).status).toBe(200);
    expect(await (await getWithKey(`${simulator.url}/v1/user/balance`)).json()).not.toEqual({ credits: 0 });
    expect(simulator.stats()).toMatchObject({ lockouts: 0, requests: { image: 2, balance: 2 } });
  });

  it('takes insufficient-balance only on Stability routes', async () => {
    const simulator = await startSimulator();
    expect(() => simulator.injectFault({ route: 'speech', fault: 'insufficient-balance' })).toThrow(
      /image, upscale, balance/,
    );
    const header = await postJson(
      `${simulator.url}/v1/audio/speech`,
      {},
      { ...AUTH, 'x-sim-fault': 'insufficient-balance' },
    );
    expect(header.status).toBe(400);
  });
});
