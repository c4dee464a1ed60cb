import { describe, expect, it } from 'vitest';
import { postJson, speechBody, startSimulator } from './helpers';

describe('OpenAI speech', () => {
  it('returns WAV audio for a valid request', async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}/v1/audio/speech`, speechBody());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.toString('ascii', 8, 12)).toBe('WAVE');
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('answers 401 in OpenAI style without a key', async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}/v1/audio/speech`, speechBody(), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.any(String) },
    });
  });

  it.each([
    ['no voice', { voice: undefined }, 'voice', 'missing_required_parameter'],
    ['an unknown voice', { voice: 'robot' }, 'voice', 'invalid_value'],
    ['empty input', { input: '' }, 'input', 'string_below_min_length'],
    ['input over 4096 characters', { input: 'a'.repeat(4097) }, 'input', 'string_above_max_length'],
    ['speed 5', { speed: 5 }, 'speed', 'decimal_above_max_value'],
    ['speed 0.1', { speed: 0.1 }, 'speed', 'decimal_below_min_value'],
    ['an unknown model', { model: 'tts-9' }, 'model', 'invalid_value'],
    ['an unknown format', { response_format: 'ogg' }, 'response_format', 'invalid_value'],
  ])('rejects %s with an OpenAI 400', async (_case, overrides, param, code) => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}/v1/audio/speech`, speechBody(overrides));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param, code },
    });
  });

  it('tells an account out of credit from a rate limit: both 429, told apart by code', async () => {
    const { url } = await startSimulator({ faults: [{ route: 'speech', fault: 'insufficient-quota', times: 1 }] });
    const broke = await postJson(`${url}/v1/audio/speech`, speechBody());
    expect(broke.status).toBe(429);
    expect(await broke.json()).toEqual({
      error: {
        message: expect.stringMatching(/current quota/),
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    });
    const limited = await postJson(`${url}/v1/audio/speech`, speechBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'http429',
    });
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });
});
