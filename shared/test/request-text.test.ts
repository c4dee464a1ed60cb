import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEECH_MODEL,
  killSwitchSchema,
  listQuerySchema,
  parseGenerationRequest,
  setPlanSchema,
  spendQuerySchema,
} from '../src';

const IN_USE = { speechModel: DEFAULT_SPEECH_MODEL };

const codePoints = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => String.fromCodePoint(from + index));
/** Every control character: C0, DEL and C1. */
const CONTROLS = [...codePoints(0x00, 0x1f), ...codePoints(0x7f, 0x9f)];
const codeOf = (character: string) => `U+${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;
/** The controls that are whitespace: a prompt or a speech text may hold them. */
const WHITESPACE_CONTROLS = ['\t', '\n', '\u000b', '\f', '\r', '\u0085'];

const valid = {
  image: { kind: 'image', prompt: 'a lighthouse at dawn', stylePreset: 'anime' },
  video: { kind: 'video', prompt: 'waves on a beach', quality: 'hd', style: 'cinematic' },
  speech: { kind: 'speech', input: 'Good morning', voice: 'nova', language: 'en-US', format: 'wav' },
} as const;

/** Every string field of every kind, and whether it is text a person writes (which may break lines). */
const FIELDS = [
  ['image', 'prompt', 'written'],
  ['image', 'stylePreset', 'single-line'],
  ['video', 'prompt', 'written'],
  ['video', 'quality', 'single-line'],
  ['video', 'style', 'single-line'],
  ['speech', 'input', 'written'],
  ['speech', 'voice', 'single-line'],
  ['speech', 'language', 'single-line'],
  ['speech', 'format', 'single-line'],
] as const;

function withCharacter(kind: keyof typeof valid, field: string, character: string) {
  const body: Record<string, string> = { ...valid[kind] };
  const value = body[field]!;
  // In the middle, where trimming would not remove it.
  body[field] = `${value.slice(0, 2)}${character}${value.slice(2)}`;
  return body;
}

describe('control characters in a generation request', () => {
  it.each(FIELDS)('%s %s: refused with INVALID_REQUEST naming the field', (kind, field, type) => {
    const refused = type === 'written' ? CONTROLS.filter((c) => !WHITESPACE_CONTROLS.includes(c)) : CONTROLS;
    for (const character of refused) {
      expect(parseGenerationRequest(withCharacter(kind, field, character), IN_USE), codeOf(character)).toEqual({
        ok: false,
        error: { code: 'INVALID_REQUEST', message: `${field}: must not contain control characters` },
      });
    }
  });

  it('a prompt reads tabs and line breaks as spaces; a speech text keeps its line breaks', () => {
    for (const character of WHITESPACE_CONTROLS) {
      const image = parseGenerationRequest(withCharacter('image', 'prompt', character), IN_USE);
      expect(image).toMatchObject({ ok: true, value: { prompt: 'a lighthouse at dawn' } });
    }
    const speech = parseGenerationRequest({ ...valid.speech, input: 'One.\r\nTwo.\u0085Three.\tFour.' }, IN_USE);
    expect(speech).toMatchObject({ ok: true, value: { input: 'One.\nTwo.\nThree. Four.' } });
  });

  it('the first problem reported is the control character, even beside another', () => {
    expect(parseGenerationRequest({ kind: 'speech', input: 'Hi\u0000', language: 'en-US' }, IN_USE)).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'input: must not contain control characters' },
    });
  });

  it('leaves the spec messages of the fields alone when there is no control character', () => {
    expect(parseGenerationRequest({ ...valid.speech, voice: 'HAL' }, IN_USE)).toEqual({
      ok: false,
      error: { code: 'SPEECH_OPTIONS_REQUIRED', message: 'Please select language and voice options' },
    });
    expect(parseGenerationRequest({ kind: 'image', prompt: '\u200B' }, IN_USE)).toEqual({
      ok: false,
      error: { code: 'PROMPT_REQUIRED', message: 'Please enter a prompt' },
    });
  });
});

describe('control characters in query parameters and the operators’ bodies', () => {
  it('every control character is refused in every string of the history query, the spend query, a plan change and the kill switch', () => {
    for (const character of CONTROLS) {
      const where = codeOf(character);
      for (const query of [
        { q: `cat${character}s` },
        { cursor: `abc${character}def` },
        { kind: `image${character}` },
        { status: `queued${character}` },
        { limit: `${character}20` },
      ]) {
        expect(listQuerySchema.safeParse(query).success, where).toBe(false);
      }
      expect(spendQuerySchema.safeParse({ by: `day${character}` }).success, where).toBe(false);
      expect(spendQuerySchema.safeParse({ days: `7${character}` }).success, where).toBe(false);
      expect(setPlanSchema.safeParse({ plan: 'pro', reason: `ticket${character}42` }).success, where).toBe(false);
      expect(killSwitchSchema.safeParse({ on: true, reason: `incident${character}7` }).success, where).toBe(false);
    }
  });

  it('takes the same values without them', () => {
    expect(
      listQuerySchema.safeParse({ q: 'cats', cursor: 'abc-def_1', kind: 'image', status: 'queued', limit: '20' }),
    ).toMatchObject({ success: true, data: { limit: 20 } });
    expect(listQuerySchema.safeParse({})).toMatchObject({ success: true, data: { limit: 20 } });
    expect(spendQuerySchema.safeParse({ by: 'day', days: '30' })).toMatchObject({ success: true, data: { days: 30 } });
    expect(setPlanSchema.safeParse({ plan: 'pro', reason: 'ticket 42' }).success).toBe(true);
    expect(killSwitchSchema.safeParse({ on: true, reason: 'incident 7' }).success).toBe(true);
  });

  it('says what is wrong, naming no value', () => {
    const parsed = listQuerySchema.safeParse({ q: 'cat\u0000' });
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ['q'], message: 'must not contain control characters' }),
    ]);
  });
});
