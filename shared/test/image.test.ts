import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STABILITY_ENGINE,
  MAX_PROMPT_LENGTH,
  NEGATIVE_PROMPT_TERMS,
  PERSON_BOOSTERS,
  PROVIDER_PROMPT_LIMIT,
  QUALITY_BOOSTERS,
  SDXL_DIMENSIONS,
  buildStabilityBody,
  sanitizeImagePrompt,
} from '../src';

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

describe('image prompt parts (the Prompt Guide syntax)', () => {
  const NEGATIVE_TERMS = { text: NEGATIVE_PROMPT_TERMS.join(', '), weight: -1 };

  it('sends a plain prompt as before: one part with its boosters, then the standard negative terms', () => {
    expect(sanitizeImagePrompt('a lighthouse at dusk')).toEqual([
      { text: `a lighthouse at dusk, ${QUALITY_BOOSTERS.join(', ')}`, weight: 1 },
      NEGATIVE_TERMS,
    ]);
  });

  it('sends each weighted part with its weight, the boosters on the heaviest, the creator negatives before the standard ones', () => {
    expect(sanitizeImagePrompt('mountain lake::2 cabin::1 fog::0.5 [blurry, extra fingers]')).toEqual([
      { text: `mountain lake, ${QUALITY_BOOSTERS.join(', ')}`, weight: 2 },
      { text: 'cabin', weight: 1 },
      { text: 'fog', weight: 0.5 },
      { text: 'blurry, extra fingers', weight: -1 },
      NEGATIVE_TERMS,
    ]);
  });

  it('blends AND parts at weight 1, boosting the first of equals, with person boosters when any part mentions one', () => {
    expect(sanitizeImagePrompt('a castle AND a woman reading [text::2]')).toEqual([
      { text: `a castle, ${[...QUALITY_BOOSTERS, ...PERSON_BOOSTERS].join(', ')}`, weight: 1 },
      { text: 'a woman reading', weight: 1 },
      { text: 'text', weight: -2 },
      NEGATIVE_TERMS,
    ]);
  });

  it('strips the listed words from every part, and drops a part left empty', () => {
    expect(sanitizeImagePrompt('castle AND gore [blood]').map((part) => part.text)).toEqual([
      `castle, ${QUALITY_BOOSTERS.join(', ')}`,
      NEGATIVE_TERMS.text,
    ]);
  });

  it('keeps every part within the provider limit of 2,000 characters', () => {
    const long = 'a'.repeat(1990);
    const parts = sanitizeImagePrompt(`${long}::2 [fog]`);
    expect(parts[0]).toEqual({ text: long, weight: 2 });
    expect(parts.every((part) => part.text.length <= PROVIDER_PROMPT_LIMIT)).toBe(true);
  });

  it('reads a stored prompt whose syntax cannot be read literally, as it was accepted', () => {
    expect(sanitizeImagePrompt('a sign reading [OPEN')[0]!.text.startsWith('a sign reading [OPEN, ')).toBe(true);
  });
});

describe('Stability payload (spec §7, §9)', () => {
  it('uses the spec defaults, without the CLIP guidance SDXL does not support', () => {
    const body = buildStabilityBody('a fox', {}, 7);
    expect(body).toEqual({
      text_prompts: sanitizeImagePrompt('a fox'),
      width: 1024,
      height: 1024,
      steps: 40,
      cfg_scale: 8,
      samples: 1,
      style_preset: 'photographic',
      sampler: 'DDIM',
      seed: 7,
    });
    expect(body).not.toHaveProperty('clip_guidance_preset');
    expect(DEFAULT_STABILITY_ENGINE).toBe('stable-diffusion-xl-1024-v1-0');
  });

  it('honours the optional fields', () => {
    const body = buildStabilityBody(
      'a fox',
      { width: 768, height: 1344, steps: 20, cfgScale: 5, stylePreset: 'anime' },
      1,
    );
    expect(body).toMatchObject({ width: 768, height: 1344, steps: 20, cfg_scale: 5, style_preset: 'anime' });
  });

  it.each([
    [512, 512, 1024, 1024],
    [768, 1024, 896, 1152],
    [2048, 1024, 1344, 768],
    [512, 2048, 640, 1536],
    [1216, 832, 1216, 832],
  ])('sends SDXL the allowed pair nearest in shape to %ix%i: %ix%i', (width, height, sentWidth, sentHeight) => {
    expect(buildStabilityBody('a fox', { width, height }, 1)).toMatchObject({ width: sentWidth, height: sentHeight });
  });

  it('sends SDXL one of its nine sizes for every size the API accepts', () => {
    const sides = Array.from({ length: (2048 - 512) / 64 + 1 }, (_, index) => 512 + index * 64);
    const allowed = new Set(SDXL_DIMENSIONS.map(([width, height]) => `${width}x${height}`));
    for (const width of sides) {
      for (const height of sides) {
        const body = buildStabilityBody('a fox', { width, height }, 1, 'stable-diffusion-xl-1024-v1-0');
        expect(allowed.has(`${body.width}x${body.height}`)).toBe(true);
      }
    }
  });

  it("sends SD 1.6 the spec's CLIP guidance and sizes within 320..1536", () => {
    const body = buildStabilityBody('a fox', { width: 2048, height: 640 }, 1, 'stable-diffusion-v1-6');
    expect(body).toMatchObject({ width: 1536, height: 640, clip_guidance_preset: 'FAST_BLUE' });
  });

  it("keeps the prompt with its boosters within Stability's 2,000 characters, the user's words whole", () => {
    const longest = `portrait of a woman ${'x'.repeat(MAX_PROMPT_LENGTH - 20)}`;
    expect(longest).toHaveLength(MAX_PROMPT_LENGTH);
    const [positive] = buildStabilityBody(longest, {}, 1).text_prompts;
    expect(positive!.text).toBe(longest);
    const shorter = longest.slice(0, MAX_PROMPT_LENGTH - 40);
    const [withSome] = buildStabilityBody(shorter, {}, 1).text_prompts;
    expect(withSome!.text).toBe(`${shorter}, highly detailed, sharp focus`);
    expect(withSome!.text.length).toBeLessThanOrEqual(PROVIDER_PROMPT_LIMIT);
  });
});
