import { describe, expect, it } from 'vitest';
import { queueMessage } from './kind-texts';

describe('queueMessage', () => {
  it.each([
    [{ position: 2, etaMs: 20_000 }, 'Queued — #2 in line, about 20 s'],
    [{ position: 2, etaMs: null }, 'Queued — #2 in line'],
    [{ position: 1, etaMs: 4_400 }, 'Queued — next in line, about 4 s'],
    [{ position: 1, etaMs: 0 }, 'Queued — next in line, about 1 s'],
    [{ position: 7, etaMs: 150_000 }, 'Queued — #7 in line, about 3 min'],
    [
      { position: 3, etaMs: null, busy: true },
      "Queued — #3 in line. We're busy right now: it will start as soon as we can.",
    ],
  ])('reads %o as %s', (queue, expected) => {
    expect(queueMessage(queue)).toBe(expected);
  });
});
