import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_RULES,
  MAX_IMAGE_SEED,
  buildStabilityBody,
  exceedsPlan,
  parseGenerationRequest,
  planForImages,
  seedOfImage,
  tokensOfRequest,
} from '../src/index';
import { imageRequest } from './support/image-request';

const context = { speechModel: 'tts-1' } as const;

describe('image sets', () => {
  it('lets each plan make its number of images per request: Free 1, Pro 4, Enterprise 10', () => {
    expect(DEFAULT_PLAN_RULES.free.limits.maxImagesPerRequest).toBe(1);
    expect(DEFAULT_PLAN_RULES.pro.limits.maxImagesPerRequest).toBe(4);
    expect(DEFAULT_PLAN_RULES.enterprise.limits.maxImagesPerRequest).toBe(10);
    expect(exceedsPlan(imageRequest({ samples: 1 }), 'free', DEFAULT_PLAN_RULES.free)).toBeNull();
    expect(exceedsPlan(imageRequest({ samples: 2 }), 'free', DEFAULT_PLAN_RULES.free)).toBe(
      'The Free plan makes one image per request. Upgrade your plan for more.',
    );
    expect(exceedsPlan(imageRequest({ samples: 4 }), 'pro', DEFAULT_PLAN_RULES.pro)).toBeNull();
    expect(exceedsPlan(imageRequest({ samples: 5 }), 'pro', DEFAULT_PLAN_RULES.pro)).toBe(
      'The Pro plan makes up to 4 images per request. Upgrade your plan for more.',
    );
    expect(exceedsPlan(imageRequest({ samples: 10 }), 'enterprise', DEFAULT_PLAN_RULES.enterprise)).toBeNull();
  });

  it('refuses a number of images out of range with a 400-worthy message on every plan', () => {
    for (const samples of [0, 11, 2.5]) {
      const parsed = parseGenerationRequest({ kind: 'image', prompt: 'a lighthouse', samples }, context);
      expect(parsed.ok, String(samples)).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatchObject({ code: 'INVALID_REQUEST', message: /^samples: / });
    }
    expect(parseGenerationRequest({ kind: 'image', prompt: 'a lighthouse', samples: 10 }, context).ok).toBe(true);
  });

  it('charges one image token per image, one token for anything else', () => {
    expect(tokensOfRequest('image', { samples: 4 })).toBe(4);
    expect(tokensOfRequest('image', {})).toBe(1);
    expect(tokensOfRequest('video', { samples: 4 })).toBe(1);
  });

  it('names the smallest plan that makes a number of images, for the lock to say', () => {
    expect(planForImages(1)).toBe('free');
    expect(planForImages(3)).toBe('pro');
    expect(planForImages(7)).toBe('enterprise');
    expect(planForImages(11)).toBeNull();
  });

  it("sends v1 the set's samples, and numbers each image's seed after the first", () => {
    expect(buildStabilityBody('a lighthouse', { samples: 3 }, 7).samples).toBe(3);
    expect(buildStabilityBody('a lighthouse', {}, 7).samples).toBe(1);
    expect([0, 1, 2].map((index) => seedOfImage(7, index))).toEqual([7, 8, 9]);
    expect(seedOfImage(MAX_IMAGE_SEED, 1)).toBe(0);
  });
});
