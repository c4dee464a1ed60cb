import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_RULES,
  buildStabilityBody,
  buildStableImageForm,
  exceedsPlan,
  imageOptionProblem,
  nearestAspectRatio,
  parseGenerationRequest,
} from '../src/index';
import { imageRequest } from './support/image-request';

describe('image models per plan', () => {
  it('lets each plan name only its models and 4K only on Enterprise', () => {
    expect(exceedsPlan(imageRequest({ model: 'stable-image-ultra' }), 'free', DEFAULT_PLAN_RULES.free)).toBe(
      'The Free plan does not include Stable Image Ultra. Upgrade your plan for more.',
    );
    expect(exceedsPlan(imageRequest({ model: 'stable-image-core' }), 'pro', DEFAULT_PLAN_RULES.pro)).toBeNull();
    expect(exceedsPlan(imageRequest({ resolution: '4k' }), 'pro', DEFAULT_PLAN_RULES.pro)).toBe(
      'The Pro plan does not include 4K images. Upgrade your plan for more.',
    );
    expect(
      exceedsPlan(
        imageRequest({ model: 'stable-image-ultra', resolution: '4k' }),
        'enterprise',
        DEFAULT_PLAN_RULES.enterprise,
      ),
    ).toBeNull();
    expect(DEFAULT_PLAN_RULES.free.limits.image.defaultModel).toBe('sdxl-1.0');
  });

  it('refuses an option the model does not take', () => {
    expect(imageOptionProblem('sd3.5-large-turbo', { negativePrompt: 'fog' })).toMatch(/^negativePrompt: /);
    expect(imageOptionProblem('stable-image-ultra', { stylePreset: 'anime' })).toMatch(/^stylePreset: /);
    expect(imageOptionProblem('stable-image-core', { steps: 30 })).toMatch(/^steps: /);
    expect(imageOptionProblem('sdxl-1.0', { steps: 30, negativePrompt: 'fog', stylePreset: 'anime' })).toBeNull();
  });

  it('validates the new fields with the shared rules', () => {
    const context = { speechModel: 'tts-1' } as const;
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', aspectRatio: '7:3' }, context)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', model: 'dall-e-3' }, context)).toMatchObject({
      ok: false,
    });
    expect(parseGenerationRequest({ kind: 'image', prompt: 'x', negativePrompt: 'a\u0000b' }, context)).toMatchObject({
      ok: false,
    });
  });

  it('builds the v2beta form and keeps the v1 body the same when no new field is given', () => {
    expect(buildStableImageForm('a lighthouse', { negativePrompt: 'fog' }, 7, 'sd3.5-medium')).toMatchObject({
      model: 'sd3.5-medium',
      aspect_ratio: '1:1',
      seed: 7,
      output_format: 'png',
    });
    expect(
      buildStableImageForm('a lighthouse', { width: 1344, height: 768 }, 7, 'stable-image-core').aspect_ratio,
    ).toBe('16:9');
    expect(buildStabilityBody('a lighthouse', {}, 7).text_prompts[1]!.text).toMatch(/^blurry, low quality/);
    expect(buildStabilityBody('a lighthouse', { aspectRatio: '16:9' }, 7)).toMatchObject({ width: 1344, height: 768 });
    expect(nearestAspectRatio(1024, 1024)).toBe('1:1');
  });
});
