import { describe, expect, it } from 'vitest';
import type { GenerationJobData } from '@mediagen/core';
import { generationView, type JobSnapshot, type JobStateName } from '../src/generations/generation-view';

const CREATED = Date.UTC(2026, 0, 1, 12, 0, 0);

function job(overrides: Partial<JobSnapshot> = {}, data: Partial<GenerationJobData> = {}): JobSnapshot {
  return {
    id: 'video_0123456789abcdef0123456789abcdef',
    data: {
      uid: 'u1',
      kind: 'video',
      request: { prompt: 'waves', quality: 'standard', duration: 6, style: 'cinematic' },
      createdAt: CREATED,
      ...data,
    } as GenerationJobData,
    progress: 0,
    returnvalue: undefined,
    failedReason: undefined,
    timestamp: CREATED + 5,
    ...overrides,
  };
}

const context = (canceled = false) => ({
  canceled,
  artifactUrl: (key: string) => `https://api.test/artifacts/${key}?sig=x`,
});
const view = (snapshot: JobSnapshot, state: JobStateName, canceled = false) =>
  generationView(snapshot, state, context(canceled));

describe('generationView', () => {
  it.each([
    ['waiting', 'queued'],
    ['delayed', 'queued'],
    ['prioritized', 'queued'],
    ['waiting-children', 'queued'],
    ['active', 'active'],
    ['completed', 'completed'],
    ['failed', 'failed'],
  ] as const)('maps the BullMQ state %s to %s', (state, status) => {
    expect(view(job(), state).status).toBe(status);
  });

  it('carries id, kind, prompt and ISO times', () => {
    const generation = view(job({ processedOn: CREATED + 1000, finishedOn: CREATED + 900 }), 'active');
    expect(generation).toEqual({
      id: 'video_0123456789abcdef0123456789abcdef',
      kind: 'video',
      status: 'active',
      progress: 0,
      createdAt: '2026-01-01T12:00:00.000Z',
      updatedAt: '2026-01-01T12:00:01.000Z',
      prompt: 'waves',
    });
  });

  it('uses the speech input as the prompt', () => {
    const speech = job({}, { kind: 'speech', request: { input: 'Hello', voice: 'nova', language: 'en-US', speed: 1 } });
    expect(view(speech, 'waiting').prompt).toBe('Hello');
  });

  it('keeps progress within 0..99 until completed, then 100', () => {
    expect(view(job({ progress: 42.4 }), 'active').progress).toBe(42);
    expect(view(job({ progress: 150 }), 'active').progress).toBe(99);
    expect(view(job({ progress: -3 }), 'active').progress).toBe(0);
    expect(view(job({ progress: { step: 2 } }), 'active').progress).toBe(0);
    expect(view(job({ progress: 60 }), 'completed').progress).toBe(100);
  });

  it('gives a completed job its signed result URL', () => {
    const done = job({ returnvalue: { artifactKey: 'video_x.mp4', mimeType: 'video/mp4', bytes: 10 } });
    expect(view(done, 'completed').result).toEqual({
      url: 'https://api.test/artifacts/video_x.mp4?sig=x',
      mimeType: 'video/mp4',
    });
  });

  it("reports the worker's catalogued error, else the failed reason", () => {
    const catalogued = job(
      { failedReason: 'boom' },
      { error: { code: 'VIDEO_TIMED_OUT', message: 'Video generation timed out - please try again' } },
    );
    expect(view(catalogued, 'failed').error).toEqual({
      code: 'VIDEO_TIMED_OUT',
      message: 'Video generation timed out - please try again',
    });
    expect(view(job({ failedReason: 'boom' }), 'failed').error).toEqual({ code: 'INTERNAL', message: 'boom' });
    expect(view(job({ failedReason: '' }), 'failed').error).toEqual({
      code: 'INTERNAL',
      message: 'Something went wrong. Please try again.',
    });
  });

  it('lets the cancel flag win over everything but completed', () => {
    for (const state of ['waiting', 'active', 'failed', 'unknown'] as const) {
      expect(view(job(), state, true)).toMatchObject({
        status: 'canceled',
        error: { code: 'CANCELED', message: 'Generation canceled.' },
      });
    }
    const done = job({ returnvalue: { artifactKey: 'video_x.mp4', mimeType: 'video/mp4', bytes: 10 } });
    expect(view(done, 'completed', true).status).toBe('completed');
  });
});
