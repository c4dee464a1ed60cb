import { describe, expect, it } from 'vitest';
import { isRealVideoPrompt, planVideo, videoPollProgress, VIDEO_MAX_POLLS, VIDEO_POLL_INTERVAL_MS } from '../src';

const base = {
  prompt: 'a paper boat on a river',
  quality: 'standard' as const,
  durationSeconds: 6,
  style: 'cinematic',
};

describe('video rules (spec §5, §9)', () => {
  it('builds the MiniMax payload for a standard video', () => {
    expect(planVideo(base)).toEqual({
      isRealVideo: false,
      format: 'mp4',
      body: {
        model: 'video-01',
        prompt: 'a paper boat on a river',
        prompt_optimizer: true,
        generation_type: 'standard',
        quality: 'standard',
        max_frames: 180,
        style_preset: 'cinematic',
        resolution: '1280x720',
        fps: 30,
        optimization_level: 'standard',
      },
    });
  });

  it('renders hd at 1920x1080 with high optimization', () => {
    expect(planVideo({ ...base, quality: 'hd' }).body).toMatchObject({
      resolution: '1920x1080',
      optimization_level: 'high',
    });
  });

  it('makes draft fast', () => {
    expect(planVideo({ ...base, quality: 'draft' }).body.generation_type).toBe('fast');
  });

  it('treats real, realistic or actual as real video: cinematic wording, mxf, always hd', () => {
    for (const prompt of ['a real tiger', 'Realistic rain', 'actual footage of a city']) {
      const plan = planVideo({ ...base, prompt, quality: 'draft' });
      expect(plan.isRealVideo).toBe(true);
      expect(plan.format).toBe('mxf');
      expect(plan.body.quality).toBe('hd');
      expect(plan.body.resolution).toBe('1920x1080');
      expect(plan.body.prompt).toContain('professional video');
    }
    expect(isRealVideoPrompt('a surreal dream')).toBe(false);
  });

  it('caps max_frames at 3600', () => {
    expect(planVideo({ ...base, durationSeconds: 10 }).body.max_frames).toBe(300);
    expect(planVideo({ ...base, durationSeconds: 121 }).body.max_frames).toBe(3600);
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
