import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify, onFirstToastRequest } from './notify';

const sonner = vi.hoisted(() => {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      calls.push([name, ...args]);
  const toast = Object.assign(record('message'), {
    message: record('message'),
    success: record('success'),
    error: record('error'),
    loading: record('loading'),
    dismiss: record('dismiss'),
  });
  return { calls, toast };
});
vi.mock('sonner', () => ({ toast: sonner.toast }));

// setup.ts gives each test a fresh toast queue: it starts before Sonner has loaded.
beforeEach(() => {
  sonner.calls.length = 0;
});

describe('notify', () => {
  it('replays the toasts asked for while Sonner loads, in order and with their options', async () => {
    const loadingId = notify.loading('Preparing...');
    notify.success('Welcome!', { duration: 5000 });
    notify.error('It failed', { id: loadingId });
    notify.dismiss(loadingId);
    expect(sonner.calls).toEqual([]);

    await vi.waitFor(() => expect(sonner.calls).toHaveLength(4));
    expect(sonner.calls).toEqual([
      ['loading', 'Preparing...', { id: loadingId }],
      ['success', 'Welcome!', { duration: 5000, id: expect.any(String) }],
      ['error', 'It failed', { id: loadingId }],
      ['dismiss', loadingId],
    ]);
  });

  it('gives every toast its own id at once, and keeps one it is given', async () => {
    const first = notify.message('one');
    const second = notify.message('two');
    expect(first).not.toBe(second);
    expect(notify.success('three', { id: 'mine' })).toBe('mine');
  });

  it('calls Sonner directly once it has loaded', async () => {
    notify.message('first');
    await vi.waitFor(() => expect(sonner.calls).toHaveLength(1));
    notify.error('second');
    expect(sonner.calls.at(-1)).toEqual(['error', 'second', { id: expect.any(String) }]);
  });

  it('asks for the toaster on the first toast only, and at once when asked late', async () => {
    const early = vi.fn();
    onFirstToastRequest(early);
    expect(early).not.toHaveBeenCalled();
    notify.message('hello');
    notify.message('again');
    expect(early).toHaveBeenCalledOnce();
    const late = vi.fn();
    onFirstToastRequest(late);
    expect(late).toHaveBeenCalledOnce();
  });
});
