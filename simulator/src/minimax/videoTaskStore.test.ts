import { describe, expect, it } from 'vitest';
import { VideoTaskStore } from './videoTaskStore';

describe('VideoTaskStore', () => {
  it('reports Queueing, then Processing, then Success by age', () => {
    let now = 1_000;
    const store = new VideoTaskStore({ queueingMs: 100, processingMs: 200 }, () => now);
    const task = store.create();

    expect(store.statusOf(task)).toBe('Queueing');
    now += 99;
    expect(store.statusOf(task)).toBe('Queueing');
    now += 1;
    expect(store.statusOf(task)).toBe('Processing');
    now += 199;
    expect(store.statusOf(task)).toBe('Processing');
    expect(store.findFinishedByFile(task.fileId)).toBeUndefined();
    now += 1;
    expect(store.statusOf(task)).toBe('Success');
    expect(store.findFinishedByFile(task.fileId)).toBe(task);
  });

  it('gives every task its own ids', () => {
    const store = new VideoTaskStore({ queueingMs: 0, processingMs: 0 });
    const [first, second] = [store.create(), store.create()];
    expect(first.taskId).not.toBe(second.taskId);
    expect(first.fileId).not.toBe(second.fileId);
    expect(store.find(second.taskId)).toBe(second);
    expect(store.find('nope')).toBeUndefined();
  });
});
