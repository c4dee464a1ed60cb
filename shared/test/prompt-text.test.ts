import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEECH_MODEL,
  ERROR_MESSAGES,
  moderatePrompt,
  normalizePromptText,
  parseGenerationRequest,
} from '../src';

const IN_USE = { speechModel: DEFAULT_SPEECH_MODEL };

const ZWSP = '\u200B';
const SOFT_HYPHEN = '\u00AD';

describe('prompt text is normalised before any rule reads it', () => {
  it('removes zero-width characters, soft hyphens, bidi and control characters', () => {
    expect(normalizePromptText(`nu${ZWSP}de`, { keepLineBreaks: false })).toBe('nude');
    expect(normalizePromptText(`ex${SOFT_HYPHEN}plicit`, { keepLineBreaks: false })).toBe('explicit');
    expect(normalizePromptText('go\u200Dre \u202Eblood\u202C \u0007gore\u0000', { keepLineBreaks: false })).toBe(
      'gore blood gore',
    );
    expect(normalizePromptText(`\uFEFFa fox\u2060 in${'\u3164'} snow`, { keepLineBreaks: false })).toBe(
      'a fox in snow',
    );
  });

  it('reads full-width and stylised letters as the letters they show (NFKC)', () => {
    expect(normalizePromptText('ｎｕｄｅ', { keepLineBreaks: false })).toBe('nude');
    expect(normalizePromptText('𝐠𝐨𝐫𝐞', { keepLineBreaks: false })).toBe('gore');
    expect(normalizePromptText('a\u00A0fox\u3000runs', { keepLineBreaks: false })).toBe('a fox runs');
  });

  it('keeps line breaks in speech text, and folds them into spaces in prompts', () => {
    expect(normalizePromptText('Hello.\r\n\r\n\r\nWorld\u2028again\t!', { keepLineBreaks: true })).toBe(
      'Hello.\n\nWorld\nagain !',
    );
    expect(normalizePromptText('a red\n\nfox', { keepLineBreaks: false })).toBe('a red fox');
  });

  it('leaves ordinary text of any script alone', () => {
    for (const text of ['a lighthouse at dawn', 'नमस्ते दुनिया', 'こんにちは世界', 'Ça va? — oui', '👩‍🚀 astronaut']) {
      // ZWJ emoji sequences lose their joiner (it is invisible), nothing else changes.
      expect(normalizePromptText(text, { keepLineBreaks: false })).toBe(text.replace('\u200D', ''));
    }
  });
});

describe('requests of every kind use the normalised text', () => {
  it('blocks an image prompt that hides a blocked word with invisible characters', () => {
    const parsed = parseGenerationRequest(
      { kind: 'image', prompt: `a nu${ZWSP}de statue, ex${SOFT_HYPHEN}plicit` },
      IN_USE,
    );
    expect(parsed.ok).toBe(true);
    const prompt = parsed.ok && parsed.value.kind === 'image' ? parsed.value.prompt : '';
    expect(prompt).toBe('a nude statue, explicit');
    expect(moderatePrompt(prompt)).toMatchObject({ allowed: false, words: ['nude', 'explicit'] });
  });

  it('a prompt or text of only invisible characters is empty, with the spec messages', () => {
    const invisible = `${ZWSP}${SOFT_HYPHEN}\u200C\u2060 \uFEFF`;
    for (const kind of ['image', 'video'] as const) {
      expect(parseGenerationRequest({ kind, prompt: invisible }, IN_USE)).toEqual({
        ok: false,
        error: { code: 'PROMPT_REQUIRED', message: ERROR_MESSAGES.PROMPT_REQUIRED },
      });
    }
    expect(
      parseGenerationRequest({ kind: 'speech', input: invisible, voice: 'nova', language: 'en-US' }, IN_USE),
    ).toEqual({
      ok: false,
      error: { code: 'SPEECH_TEXT_REQUIRED', message: ERROR_MESSAGES.SPEECH_TEXT_REQUIRED },
    });
  });

  it('stores and sends the normalised text for video and speech too', () => {
    const video = parseGenerationRequest({ kind: 'video', prompt: `waves${ZWSP}  on a\tbeach` }, IN_USE);
    expect(video.ok && video.value.kind === 'video' && video.value.prompt).toBe('waves on a beach');
    const speech = parseGenerationRequest(
      {
        kind: 'speech',
        input: 'Hi\u200B there',
        voice: 'nova',
        language: 'en-US',
      },
      IN_USE,
    );
    expect(speech.ok && speech.value.kind === 'speech' && speech.value.input).toBe('Hi there');
  });

  it('counts the length limit on the normalised text', () => {
    const padded = `${'a'.repeat(1990)}${ZWSP.repeat(500)}`;
    expect(parseGenerationRequest({ kind: 'image', prompt: padded }, IN_USE).ok).toBe(true);
  });
});
