import { describe, expect, it } from 'vitest';
import {
  MAX_PROMPT_LENGTH,
  MINIMAX_VIDEO_MODEL_IDS,
  PROVIDER_PROMPT_LIMIT,
  REAL_VIDEO_PHRASES,
  isRealVideoPrompt,
  planVideo,
  videoPollProgress,
  VIDEO_MAX_POLLS,
  VIDEO_POLL_INTERVAL_MS,
} from '../src';

const base = {
  prompt: 'a paper boat on a river',
  quality: 'standard' as const,
  durationSeconds: 6,
  style: 'cinematic',
};

describe('video rules (spec §5, §9)', () => {
  it("sends the spec's video-01, by its published name T2V-01, only the fields MiniMax documents", () => {
    expect(planVideo(base)).toEqual({
      isRealVideo: false,
      format: 'mp4',
      quality: 'standard',
      body: { model: 'T2V-01', prompt: 'a paper boat on a river', prompt_optimizer: true },
    });
  });

  it('sends no field the API does not take, whatever the quality (generation_type, fps, max_frames…)', () => {
    for (const quality of ['draft', 'standard', 'hd'] as const) {
      for (const model of MINIMAX_VIDEO_MODEL_IDS) {
        const body = planVideo({ ...base, quality }, model).body;
        const allowed = ['model', 'prompt', 'prompt_optimizer', 'duration', 'resolution', 'fast_pretreatment'];
        expect(Object.keys(body).filter((key) => !allowed.includes(key))).toEqual([]);
      }
    }
  });

  it.each([
    ['standard', 6, { duration: 6, resolution: '768P' }],
    // The shortest clip at least as long as the one asked for.
    ['standard', 5, { duration: 6, resolution: '768P' }],
    ['standard', 7, { duration: 10, resolution: '768P' }],
    ['standard', 120, { duration: 10, resolution: '768P' }],
    ['draft', 6, { duration: 6, resolution: '768P', fast_pretreatment: true }],
    ['hd', 6, { duration: 6, resolution: '1080P' }],
    // 1080P renders only 6 s clips: hd wins over the length asked for.
    ['hd', 10, { duration: 6, resolution: '1080P' }],
  ] as const)(
    'maps %s, %i s of a request recorded without a resolution onto a Hailuo model as %o',
    (quality, durationSeconds, expected) => {
      for (const model of ['MiniMax-Hailuo-02', 'MiniMax-Hailuo-2.3'] as const) {
        expect(planVideo({ ...base, quality, durationSeconds }, model).body).toEqual({
          model,
          prompt: base.prompt,
          prompt_optimizer: true,
          ...expected,
        });
      }
    },
  );

  it('sends a request resolved at submit as it was resolved: its resolution, and its length', () => {
    const resolved = { ...base, resolution: '768P', durationSeconds: 10 } as const;
    expect(planVideo(resolved, 'MiniMax-Hailuo-2.3').body).toEqual({
      model: 'MiniMax-Hailuo-2.3',
      prompt: base.prompt,
      prompt_optimizer: true,
      duration: 10,
      resolution: '768P',
    });
    // Settled at submit: a real-video prompt resolved to 768P (named by the creator) stays 768P.
    const named = planVideo({ ...resolved, prompt: 'a real tiger' }, 'MiniMax-Hailuo-2.3');
    expect(named.body).toMatchObject({ resolution: '768P', duration: 10 });
    expect(named.quality).toBe('standard');
    // The first generation takes neither field, whatever was resolved.
    expect(planVideo({ ...base, resolution: '720P' }, 'T2V-01').body).toEqual({
      model: 'T2V-01',
      prompt: base.prompt,
      prompt_optimizer: true,
    });
  });

  it('treats real, realistic or actual as real video: cinematic wording, mxf, always hd', () => {
    for (const prompt of ['a real tiger', 'Realistic rain', 'actual footage of a city']) {
      const plan = planVideo({ ...base, prompt, quality: 'draft' });
      expect(plan.isRealVideo).toBe(true);
      expect(plan.format).toBe('mxf');
      expect(plan.quality).toBe('hd');
      expect(plan.body.prompt).toBe(`${prompt}, ${REAL_VIDEO_PHRASES.join(', ')}`);
      expect(planVideo({ ...base, prompt, quality: 'draft' }, 'MiniMax-Hailuo-02').body.resolution).toBe('1080P');
    }
    expect(isRealVideoPrompt('a surreal dream')).toBe(false);
  });

  it("keeps a maximal real-video prompt within the 2,000 characters MiniMax takes, the user's words whole", () => {
    const words = `a real ${'x'.repeat(MAX_PROMPT_LENGTH - 7)}`;
    expect(words).toHaveLength(MAX_PROMPT_LENGTH);
    expect(planVideo({ ...base, prompt: words }).body.prompt).toBe(words);
    const roomForOne = `a real ${'x'.repeat(MAX_PROMPT_LENGTH - 7 - 40)}`;
    const prompt = planVideo({ ...base, prompt: roomForOne }).body.prompt;
    expect(prompt.length).toBeLessThanOrEqual(PROVIDER_PROMPT_LIMIT);
    expect(prompt).toBe(`${roomForOne}, cinematic quality`);
  });

  it('polls every 2 s, at most 360 times', () => {
    expect(VIDEO_POLL_INTERVAL_MS).toBe(2000);
    expect(VIDEO_MAX_POLLS).toBe(360);
  });

  it('reports poll progress that rises, never passes 99', () => {
    const values = Array.from({ length: VIDEO_MAX_POLLS + 1 }, (_, poll) => videoPollProgress(poll));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values[1]!).toBeGreaterThan(values[0]!);
    expect(Math.max(...values)).toBe(99);
  });
});
