import type { Generation } from '@mediagen/shared';
import { describe, expect, it } from 'vitest';
import { at, buildGeneration } from '@/testing/generation-factory';
import {
  applyDismissed,
  applyRemoved,
  applyResync,
  applyStarted,
  applyUpdate,
  EMPTY_GENERATIONS,
} from './generation-reducer';

function applyAll(updates: Generation[]) {
  return updates.reduce(applyUpdate, EMPTY_GENERATIONS);
}

describe('applyUpdate', () => {
  const queued = buildGeneration({ id: 'g', status: 'queued', version: 1, progress: 0, updatedAt: at(0) });
  const active40 = { ...queued, status: 'active' as const, version: 2, progress: 40, updatedAt: at(2) };
  const active70 = { ...active40, progress: 70, updatedAt: at(4) };
  const completed = {
    ...queued,
    status: 'completed' as const,
    version: 3,
    progress: 100,
    token: 'spent' as const,
    updatedAt: at(6),
    result: { url: 'https://api.test/a.png', mimeType: 'image/png' },
  };

  it('ends in the same state whatever order the events arrive in', () => {
    const orders = [
      [queued, active40, active70, completed],
      [completed, active70, queued, active40],
      [active70, queued, completed, active40],
      [active40, completed, active70, queued],
    ];
    for (const order of orders) {
      expect(applyAll(order).byId.g).toEqual(completed);
    }
  });

  it('never lowers progress within a state', () => {
    expect(applyAll([active70, active40]).byId.g).toEqual(active70);
  });

  it('ignores a running event once the generation has ended', () => {
    const failed = {
      ...active40,
      status: 'failed' as const,
      version: 3,
      token: 'refunded' as const,
      error: { code: 'IMAGE_FAILED' as const, message: 'Failed to generate image' },
    };
    expect(applyAll([failed, active70]).byId.g).toEqual(failed);
  });

  it('keeps the queue position of the latest queued event', () => {
    const first = { ...queued, queue: { position: 3, etaMs: 30_000 } };
    const second = { ...queued, queue: { position: 1, etaMs: 5_000 } };
    expect(applyAll([first, second]).byId.g?.queue).toEqual({ position: 1, etaMs: 5_000 });
  });

  it('returns the same state object for a stale event, so subscribers do not re-render', () => {
    const active = buildGeneration({ status: 'active', version: 2, progress: 50, updatedAt: at(5) });
    const state = applyUpdate(EMPTY_GENERATIONS, active);
    expect(applyUpdate(state, { ...active, status: 'queued', version: 1, progress: 0, updatedAt: at(1) })).toBe(state);
  });

  it('keeps generations apart by id', () => {
    const image = buildGeneration({ kind: 'image' });
    const video = buildGeneration({ kind: 'video', status: 'active', progress: 20 });
    const state = applyAll([image, video]);
    expect(Object.keys(state.byId)).toEqual([image.id, video.id]);
  });
});

describe('current generation per kind', () => {
  it('follows a generation started here', () => {
    const started = buildGeneration({ kind: 'video' });
    expect(applyStarted(EMPTY_GENERATIONS, started).currentIdByKind.video).toBe(started.id);
  });

  it('keeps the further state when the socket outran the POST answer', () => {
    const queued = buildGeneration({ kind: 'speech' });
    const activeFirst = applyUpdate(EMPTY_GENERATIONS, {
      ...queued,
      status: 'active',
      version: 2,
      progress: 35,
      updatedAt: at(3),
    });
    const state = applyStarted(activeFirst, queued);
    expect(state.byId[queued.id]).toMatchObject({ status: 'active', progress: 35 });
    expect(state.currentIdByKind.speech).toBe(queued.id);
  });

  it('resumes the newest running generation of each kind after a reload', () => {
    const oldImage = buildGeneration({
      kind: 'image',
      status: 'completed',
      progress: 100,
      createdAt: at(0),
      updatedAt: at(10),
    });
    const runningImage = buildGeneration({
      kind: 'image',
      status: 'active',
      progress: 60,
      createdAt: at(20),
      updatedAt: at(25),
    });
    const finishedVideo = buildGeneration({
      kind: 'video',
      status: 'completed',
      progress: 100,
      createdAt: at(5),
      updatedAt: at(30),
    });
    const state = applyResync(EMPTY_GENERATIONS, [finishedVideo, runningImage, oldImage]);
    expect(state.currentIdByKind).toEqual({ image: runningImage.id });
  });

  it('picks up a result that finished while disconnected', () => {
    const running = buildGeneration({ kind: 'video', status: 'active', version: 2, progress: 40, updatedAt: at(4) });
    const shown = applyStarted(EMPTY_GENERATIONS, running);
    const state = applyResync(shown, [
      { ...running, status: 'completed', version: 3, progress: 100, token: 'spent', updatedAt: at(90) },
    ]);
    expect(state.byId[running.id]?.status).toBe('completed');
    expect(state.currentIdByKind.video).toBe(running.id);
  });

  it('does not bring back a generation whose panel was reset', () => {
    const running = buildGeneration({ kind: 'image', status: 'active', progress: 40 });
    const reset = applyDismissed(applyStarted(EMPTY_GENERATIONS, running), 'image');
    expect(reset.currentIdByKind.image).toBeUndefined();
    expect(applyResync(reset, [running]).currentIdByKind.image).toBeUndefined();
  });
});

describe('applyRemoved', () => {
  it('forgets a deleted generation, and clears the panel that showed it', () => {
    const shown = buildGeneration({ id: 'shown', kind: 'video' });
    const other = buildGeneration({ id: 'other', kind: 'image' });
    const state = applyStarted(applyStarted(EMPTY_GENERATIONS, other), shown);
    const next = applyRemoved(state, 'shown');
    expect(Object.keys(next.byId)).toEqual(['other']);
    expect(next.currentIdByKind).toEqual({ image: 'other' });
    expect(applyRemoved(next, 'unknown')).toBe(next);
  });
});
