import { describe, expect, it } from 'vitest';
import { IMAGE_DEFAULTS, buildStabilityBody, imageDownloadName, moderatePrompt, sanitizeImagePrompt } from '../src';

describe('prompt moderation (spec §5)', () => {
  it('blocks any listed word, case-insensitively, naming every match', () => {
    expect(moderatePrompt('A NUDE figure covered in Blood')).toEqual({
      allowed: false,
      words: ['nude', 'blood'],
      message: 'Prompt contains inappropriate content: nude, blood',
    });
  });

  it('matches inside longer words, as the spec says "contain"', () => {
    expect(moderatePrompt('a bloody sunset').allowed).toBe(false);
  });

  it('lets a clean prompt through', () => {
    expect(moderatePrompt('a lighthouse at dusk')).toEqual({ allowed: true });
  });
});

describe('image prompt sanitizing', () => {
  it('appends quality boosters and a negative prompt of weight -1', () => {
    const [positive, negative] = sanitizeImagePrompt('a lighthouse at dusk');
    expect(positive!.weight).toBe(1);
    expect(positive!.text.startsWith('a lighthouse at dusk, ')).toBe(true);
    expect(positive!.text).toContain('highly detailed');
    expect(positive!.text).not.toContain('detailed face');
    expect(negative!.weight).toBe(-1);
    expect(negative!.text).toContain('blurry');
  });

  it('adds face and anatomy boosters when a person is mentioned', () => {
    for (const prompt of ['portrait of a woman', 'a man walking', 'happy people', 'a person reading']) {
      expect(sanitizeImagePrompt(prompt)[0]!.text).toContain('correct anatomy');
    }
    expect(sanitizeImagePrompt('a manual typewriter')[0]!.text).not.toContain('correct anatomy');
  });

  it('strips the listed words except "inappropriate"', () => {
    const [positive] = sanitizeImagePrompt('gore inappropriate castle');
    expect(positive!.text.startsWith('inappropriate castle, ')).toBe(true);
  });
});

describe('Stability payload (spec §7, §9)', () => {
  it('uses the spec defaults', () => {
    const body = buildStabilityBody('a fox', {}, 7);
    expect(body).toMatchObject({
      width: 1024,
      height: 1024,
      steps: 40,
      cfg_scale: 8,
      samples: 1,
      style_preset: 'photographic',
      clip_guidance_preset: 'FAST_BLUE',
      sampler: 'DDIM',
      seed: 7,
    });
    expect(IMAGE_DEFAULTS.width).toBe(1024);
  });

  it('honours the optional fields', () => {
    const body = buildStabilityBody(
      'a fox',
      { width: 768, height: 1344, steps: 20, cfgScale: 5, stylePreset: 'anime' },
      1,
    );
    expect(body).toMatchObject({ width: 768, height: 1344, steps: 20, cfg_scale: 5, style_preset: 'anime' });
  });

  it('names downloads with the product prefix and a timestamp', () => {
    expect(imageDownloadName(1700000000000)).toBe('mediagen-1700000000000.png');
  });
});
