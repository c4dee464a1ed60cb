import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_RULES,
  MINIMAX_VIDEO_MODELS,
  PLAN_VIDEO_MODELS,
  VIDEO_MODEL_CHOICES,
  exceedsPlan,
  parseGenerationRequest,
  resolveVideoRequest,
  videoOptionsForPlan,
  type VideoAsk,
} from '../src';

const ask = (fields: Partial<VideoAsk> = {}): VideoAsk => ({
  prompt: 'a paper boat on a river',
  quality: 'standard',
  duration: 6,
  ...fields,
});

const FREE_LIMIT = 'The Free plan makes 6-second 720P videos with T2V-01. Upgrade your plan for more.';

describe('video models per plan (issue 36)', () => {
  it('makes Free videos with the base model, 720P in 6 s: draft and standard alike', () => {
    for (const quality of ['draft', 'standard'] as const) {
      for (const duration of [1, 5, 6]) {
        expect(resolveVideoRequest('free', ask({ quality, duration }))).toEqual({
          ok: true,
          settings: { model: 'T2V-01', resolution: '720P', duration: 6, quality },
        });
      }
    }
    expect(resolveVideoRequest('free', ask({ model: 'T2V-01', resolution: '720P' })).ok).toBe(true);
  });

  it('refuses Free what only another plan makes, naming what Free makes', () => {
    const beyondFree: Partial<VideoAsk>[] = [
      { quality: 'hd' },
      { resolution: '1080P' },
      { resolution: '768P' },
      { duration: 10 },
      { duration: 7 },
      { model: 'MiniMax-Hailuo-2.3' },
    ];
    for (const fields of beyondFree) {
      expect(resolveVideoRequest('free', ask(fields))).toEqual({ ok: false, code: 'PLAN_LIMIT', message: FREE_LIMIT });
    }
  });

  it('makes Pro and Enterprise videos with Hailuo-2.3 by default: 768P in 6 or 10 s, HD as 1080P in 6 s', () => {
    for (const plan of ['pro', 'enterprise'] as const) {
      const settle = (fields: Partial<VideoAsk>) => resolveVideoRequest(plan, ask(fields));
      const hailuo = (resolution: string, duration: number, quality: string) => ({
        ok: true,
        settings: { model: 'MiniMax-Hailuo-2.3', resolution, duration, quality },
      });
      expect(settle({})).toEqual(hailuo('768P', 6, 'standard'));
      expect(settle({ quality: 'draft' })).toEqual(hailuo('768P', 6, 'draft'));
      expect(settle({ duration: 10 })).toEqual(hailuo('768P', 10, 'standard'));
      expect(settle({ duration: 8 })).toEqual(hailuo('768P', 10, 'standard'));
      expect(settle({ quality: 'hd' })).toEqual(hailuo('1080P', 6, 'hd'));
      // 1080P is HD, whatever quality the form left at its default.
      expect(settle({ resolution: '1080P' })).toEqual(hailuo('1080P', 6, 'hd'));
      expect(settle({ resolution: '768P', quality: 'draft', duration: 10 })).toEqual(hailuo('768P', 10, 'draft'));
      // The base model when named, or when its resolution is asked for.
      const base = { ok: true, settings: { model: 'T2V-01', resolution: '720P', duration: 6, quality: 'standard' } };
      expect(settle({ model: 'T2V-01' })).toEqual(base);
      expect(settle({ resolution: '720P' })).toEqual(base);
    }
  });

  it('refuses with 400 what no model renders: 1080P in 10 s, HD at another resolution, HD from T2V-01', () => {
    const cases: [Partial<VideoAsk>, string][] = [
      [{ quality: 'hd', duration: 10 }, 'MiniMax-Hailuo-2.3 renders 1080P video in clips of 6 seconds'],
      [{ resolution: '1080P', duration: 10 }, 'MiniMax-Hailuo-2.3 renders 1080P video in clips of 6 seconds'],
      [{ quality: 'hd', resolution: '768P' }, 'HD video is 1080P'],
      [{ model: 'T2V-01', quality: 'hd' }, 'T2V-01 makes no HD video'],
      [{ model: 'T2V-01', duration: 10 }, 'T2V-01 renders 720P video in clips of 6 seconds'],
      [{ model: 'MiniMax-Hailuo-2.3', resolution: '720P' }, 'MiniMax-Hailuo-2.3 renders 768P or 1080P video'],
    ];
    for (const plan of ['free', 'pro', 'enterprise'] as const) {
      for (const [fields, why] of cases) {
        const settled = resolveVideoRequest(plan, ask(fields));
        expect(settled).toEqual({
          ok: false,
          code: 'INVALID_REQUEST',
          message: `${why}, so no video can be made of this request`,
        });
      }
    }
  });

  it("renders a real-video prompt in HD where the plan's model has it (spec §5), and as the base model's 720P on Free", () => {
    expect(resolveVideoRequest('pro', ask({ prompt: 'a real tiger', duration: 10 }))).toEqual({
      ok: true,
      settings: { model: 'MiniMax-Hailuo-2.3', resolution: '1080P', duration: 6, quality: 'hd' },
    });
    // A resolution the creator named holds.
    expect(resolveVideoRequest('pro', ask({ prompt: 'a real tiger', resolution: '768P', duration: 10 }))).toMatchObject(
      {
        settings: { resolution: '768P', duration: 10 },
      },
    );
    expect(resolveVideoRequest('free', ask({ prompt: 'a real tiger' }))).toEqual({
      ok: true,
      settings: { model: 'T2V-01', resolution: '720P', duration: 6, quality: 'standard' },
    });
  });

  it('offers each plan what its models render, and only combinations MiniMax renders', () => {
    expect(videoOptionsForPlan('free')).toEqual({
      defaultModel: 'T2V-01',
      options: [{ model: 'T2V-01', resolution: '720P', durations: [6], qualities: ['draft', 'standard'] }],
    });
    const pro = videoOptionsForPlan('pro');
    expect(pro).toEqual({
      defaultModel: 'MiniMax-Hailuo-2.3',
      options: [
        { model: 'MiniMax-Hailuo-2.3', resolution: '768P', durations: [6, 10], qualities: ['draft', 'standard'] },
        { model: 'MiniMax-Hailuo-2.3', resolution: '1080P', durations: [6], qualities: ['hd'] },
        { model: 'T2V-01', resolution: '720P', durations: [6], qualities: ['draft', 'standard'] },
      ],
    });
    expect(videoOptionsForPlan('enterprise')).toEqual(pro);
    for (const plan of ['free', 'pro', 'enterprise'] as const) {
      for (const option of videoOptionsForPlan(plan).options) {
        const renders: Partial<Record<string, readonly number[]>> = MINIMAX_VIDEO_MODELS[option.model].renders;
        expect(renders[option.resolution]).toEqual(option.durations);
        for (const duration of option.durations) {
          const settled = resolveVideoRequest(
            plan,
            ask({ model: option.model, resolution: option.resolution, duration }),
          );
          expect(settled.ok).toBe(true);
        }
      }
    }
    expect(new Set(Object.values(PLAN_VIDEO_MODELS).flat())).toEqual(new Set(VIDEO_MODEL_CHOICES));
  });

  it('exceedsPlan names the plan limit, and leaves what no model renders to the request rules', () => {
    const video = (fields: Record<string, unknown>) => {
      const parsed = parseGenerationRequest({ kind: 'video', prompt: 'waves', ...fields }, { speechModel: 'tts-1' });
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value;
    };
    expect(exceedsPlan(video({ resolution: '1080P' }), 'free', DEFAULT_PLAN_RULES.free)).toBe(FREE_LIMIT);
    expect(exceedsPlan(video({ resolution: '1080P' }), 'pro', DEFAULT_PLAN_RULES.pro)).toBeNull();
    expect(exceedsPlan(video({ quality: 'hd', duration: 10 }), 'pro', DEFAULT_PLAN_RULES.pro)).toBeNull();
    // A request recorded before video models had plans (no model, no resolution) fits the base model.
    expect(exceedsPlan(video({ quality: 'standard', duration: 6 }), 'free', DEFAULT_PLAN_RULES.free)).toBeNull();
  });
});

describe('the video request schema', () => {
  const parse = (fields: Record<string, unknown>) =>
    parseGenerationRequest({ kind: 'video', prompt: 'waves', ...fields }, { speechModel: 'tts-1' });

  it('takes a model and a resolution, both optional, from the lists', () => {
    expect(parse({ model: 'MiniMax-Hailuo-2.3', resolution: '1080P' })).toMatchObject({
      ok: true,
      value: { model: 'MiniMax-Hailuo-2.3', resolution: '1080P', duration: 6, quality: 'standard' },
    });
    expect(parse({})).toEqual({
      ok: true,
      value: { kind: 'video', prompt: 'waves', quality: 'standard', duration: 6, style: 'cinematic' },
    });
    expect(parse({ model: 'MiniMax-Hailuo-02' })).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'model: model must be one of T2V-01, MiniMax-Hailuo-2.3' },
    });
    expect(parse({ resolution: '4K' })).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'resolution: resolution must be one of 720P, 768P, 1080P' },
    });
  });

  it('takes lengths of 1 to 10 s: longer than any model renders is refused', () => {
    expect(parse({ duration: 10 }).ok).toBe(true);
    expect(parse({ duration: 1 }).ok).toBe(true);
    expect(parse({ duration: 11 })).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: 'duration: must be at most 10: videos are 6 or 10 seconds long' },
    });
  });
});
