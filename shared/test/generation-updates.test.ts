import { describe, expect, it } from 'vitest';
import { mergeGenerationUpdate, type Generation } from '../src';

const base: Generation = {
  id: 'video_0123456789abcdef0123456789abcdef',
  kind: 'video',
  status: 'queued',
  version: 1,
  progress: 0,
  token: 'held',
  paidWorkStarted: false,
  tokenCount: 1,
  tokensReturned: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  prompt: 'waves on a beach',
};
const queued = (position: number): Generation => ({ ...base, queue: { position, etaMs: null } });
const active = (progress: number): Generation => ({ ...base, status: 'active', version: 2, progress });
const completed: Generation = { ...base, status: 'completed', version: 3, progress: 100, token: 'spent' };
const canceled: Generation = { ...base, status: 'canceled', version: 3, progress: 40, token: 'spent' };

const fold = (updates: readonly Generation[]) =>
  updates.reduce<Generation | undefined>(mergeGenerationUpdate, undefined);

describe('mergeGenerationUpdate', () => {
  it('takes a newer version whatever its progress, and keeps the held one for an older version', () => {
    expect(mergeGenerationUpdate(active(60), completed)).toBe(completed);
    expect(mergeGenerationUpdate(completed, active(60))).toBe(completed);
    // A later state may carry less progress than an earlier one (a video restarted after a crash).
    expect(mergeGenerationUpdate(active(60), { ...active(0), version: 3 })).toEqual({ ...active(0), version: 3 });
  });

  it('at the same version lets progress only rise and the queue position change', () => {
    const at40 = active(40);
    expect(mergeGenerationUpdate(at40, active(20))).toBe(at40);
    expect(mergeGenerationUpdate(at40, active(55))).toEqual(active(55));
    expect(mergeGenerationUpdate(queued(3), queued(2))).toEqual(queued(2));
  });

  it('ends in the same state from updates delivered in any order', () => {
    const delivered = [queued(2), queued(1), active(10), active(50), active(90), completed];
    const orders = [
      delivered,
      [...delivered].reverse(),
      [active(50), completed, queued(1), active(90), active(10), queued(2)],
      [completed, completed, active(90)],
    ];
    for (const order of orders) expect(fold(order)).toEqual(completed);
  });

  it('keeps a final state against any update older than it', () => {
    expect(mergeGenerationUpdate(canceled, active(95))).toBe(canceled);
    expect(fold([active(40), canceled, active(50)])).toEqual(canceled);
  });
});
