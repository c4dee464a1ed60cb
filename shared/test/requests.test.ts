import { describe, expect, it } from 'vitest';
import { nextProgress, parseGenerationRequest } from '../src';

describe('generation request validation', () => {
  it("answers a blank prompt with 'Please enter a prompt'", () => {
    for (const body of [{ kind: 'image', prompt: '   ' }, { kind: 'video' }, { kind: 'image', prompt: '' }]) {
      expect(parseGenerationRequest(body)).toEqual({
        ok: false,
        error: { code: 'PROMPT_REQUIRED', message: 'Please enter a prompt' },
      });
    }
  });

  it("answers empty speech text with 'Please enter some text'", () => {
    expect(parseGenerationRequest({ kind: 'speech', input: ' ', voice: 'nova', language: 'en-US' })).toMatchObject({
      error: { code: 'SPEECH_TEXT_REQUIRED', message: 'Please enter some text' },
    });
  });

  it("answers a missing voice or language with 'Please select language and voice options'", () => {
    for (const body of [
      { kind: 'speech', input: 'hi', language: 'en-US' },
      { kind: 'speech', input: 'hi', voice: 'nova' },
      { kind: 'speech', input: 'hi', voice: 'nova', language: 'xx-XX' },
    ]) {
      expect(parseGenerationRequest(body)).toMatchObject({
        error: { code: 'SPEECH_OPTIONS_REQUIRED', message: 'Please select language and voice options' },
      });
    }
  });

  it('fills the speech and video defaults', () => {
    expect(parseGenerationRequest({ kind: 'speech', input: 'hi', voice: 'onyx', language: 'hi-IN' })).toEqual({
      ok: true,
      value: { kind: 'speech', input: 'hi', voice: 'onyx', language: 'hi-IN', speed: 1 },
    });
    expect(parseGenerationRequest({ kind: 'video', prompt: 'waves' })).toEqual({
      ok: true,
      value: { kind: 'video', prompt: 'waves', quality: 'standard', duration: 6, style: 'cinematic' },
    });
  });

  it('refuses unknown kinds, unknown fields and out-of-range values with a pointer to the field', () => {
    expect(parseGenerationRequest({ kind: 'music', prompt: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', admin: true })).toMatchObject({ ok: false });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', width: 1000 })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('width') },
    });
    expect(parseGenerationRequest(null)).toMatchObject({ ok: false });
  });
});

describe('progress', () => {
  it('never goes backwards and stays at most 99', () => {
    expect(nextProgress(40, 30)).toBe(40);
    expect(nextProgress(40, 60)).toBe(60);
    expect(nextProgress(40, 150)).toBe(99);
  });
});
