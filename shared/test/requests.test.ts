import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEECH_MODEL, nextProgress, parseGenerationRequest } from '../src';

const IN_USE = { speechModel: DEFAULT_SPEECH_MODEL };

describe('generation request validation', () => {
  it("answers a blank prompt with 'Please enter a prompt'", () => {
    for (const body of [{ kind: 'image', prompt: '   ' }, { kind: 'video' }, { kind: 'image', prompt: '' }]) {
      expect(parseGenerationRequest(body, IN_USE)).toEqual({
        ok: false,
        error: { code: 'PROMPT_REQUIRED', message: 'Please enter a prompt' },
      });
    }
  });

  it("answers empty speech text with 'Please enter some text'", () => {
    expect(
      parseGenerationRequest({ kind: 'speech', input: ' ', voice: 'nova', language: 'en-US' }, IN_USE),
    ).toMatchObject({
      error: { code: 'SPEECH_TEXT_REQUIRED', message: 'Please enter some text' },
    });
  });

  it("answers a missing voice or language with 'Please select language and voice options'", () => {
    for (const body of [
      { kind: 'speech', input: 'hi', language: 'en-US' },
      { kind: 'speech', input: 'hi', voice: 'nova' },
      { kind: 'speech', input: 'hi', voice: 'nova', language: 'xx-XX' },
    ]) {
      expect(parseGenerationRequest(body, IN_USE)).toMatchObject({
        error: { code: 'SPEECH_OPTIONS_REQUIRED', message: 'Please select language and voice options' },
      });
    }
  });

  it('fills the speech and video defaults', () => {
    expect(parseGenerationRequest({ kind: 'speech', input: 'hi', voice: 'onyx', language: 'hi-IN' }, IN_USE)).toEqual({
      ok: true,
      value: { kind: 'speech', input: 'hi', voice: 'onyx', language: 'hi-IN', speed: 1, format: 'mp3' },
    });
    expect(parseGenerationRequest({ kind: 'video', prompt: 'waves' }, IN_USE)).toEqual({
      ok: true,
      value: { kind: 'video', prompt: 'waves', quality: 'standard', duration: 6, style: 'cinematic' },
    });
  });

  it('refuses unknown kinds, unknown fields and out-of-range values with a pointer to the field', () => {
    expect(parseGenerationRequest({ kind: 'music', prompt: 'x' }, IN_USE)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', admin: true }, IN_USE)).toMatchObject({ ok: false });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', width: 1000 }, IN_USE)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('width') },
    });
    expect(parseGenerationRequest(null, IN_USE)).toMatchObject({ ok: false });
  });
});

describe('image prompt syntax', () => {
  it('takes weights, AND and [negatives], keeping the prompt as written', () => {
    const prompt = 'mountain lake::2 AND cabin [blurry, extra fingers]';
    expect(parseGenerationRequest({ kind: 'image', prompt }, IN_USE)).toEqual({
      ok: true,
      value: { kind: 'image', prompt },
    });
  });

  it.each([
    [
      'portrait of a chef [blurry',
      'prompt: A [ is never closed: write what to keep out between [ and ], like [blurry]',
    ],
    ['a lake::20', 'prompt: Weights go from -10 to 10, like fog::0.5 or [blurry::2]'],
    ['[blurry, text]', 'prompt: Say what to make, not only what to keep out: add words outside the [ ]'],
  ])('refuses %s as an invalid request saying what is wrong', (prompt, message) => {
    expect(parseGenerationRequest({ kind: 'image', prompt }, IN_USE)).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message },
    });
  });

  it('leaves video prompts as they are written: MiniMax has no such syntax', () => {
    expect(parseGenerationRequest({ kind: 'video', prompt: 'a sign reading [OPEN' }, IN_USE)).toMatchObject({
      ok: true,
    });
  });
});

describe('progress', () => {
  it('never goes backwards and stays at most 99', () => {
    expect(nextProgress(40, 30)).toBe(40);
    expect(nextProgress(40, 60)).toBe(60);
    expect(nextProgress(40, 150)).toBe(99);
  });
});

describe('speech rules follow the speech model in use', () => {
  const speech = (speed: number, extra: object = {}) => ({
    kind: 'speech',
    input: 'hello',
    voice: 'nova',
    language: 'en-US',
    speed,
    ...extra,
  });

  it('refuses a speed outside the Realtime range with a 400-worthy message instead of clamping it', () => {
    const realtime = { speechModel: 'gpt-realtime-2.1-mini' } as const;
    expect(parseGenerationRequest(speech(2), realtime)).toEqual({
      ok: false,
      error: {
        code: 'INVALID_REQUEST',
        message: 'speed must be from 0.25 to 1.5 with the speech model in use (gpt-realtime-2.1-mini)',
      },
    });
    expect(parseGenerationRequest(speech(1.5), realtime).ok).toBe(true);
    expect(parseGenerationRequest(speech(0.25), realtime).ok).toBe(true);
  });

  it('takes the speech endpoint its wider range while that model is in use', () => {
    expect(parseGenerationRequest(speech(4), { speechModel: 'tts-1' }).ok).toBe(true);
    expect(parseGenerationRequest(speech(4.5), { speechModel: 'tts-1' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
  });

  it('takes the formats the worker can deliver and names them when another is asked for', () => {
    expect(parseGenerationRequest(speech(1, { format: 'wav' }), IN_USE)).toMatchObject({
      ok: true,
      value: { format: 'wav' },
    });
    expect(parseGenerationRequest(speech(1, { format: 'aiff' }), IN_USE)).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'format: format must be one of mp3, wav, opus, flac' },
    });
  });
});
