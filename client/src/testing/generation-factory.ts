import type { Generation } from '@mediagen/shared';

let sequence = 0;

/** A generation as the API would send it; override only what a test is about. */
export function buildGeneration(overrides: Partial<Generation> = {}): Generation {
  sequence += 1;
  return {
    id: `gen-${sequence}`,
    kind: 'image',
    status: 'queued',
    version: 1,
    progress: 0,
    token: 'held',
    paidWorkStarted: false,
    tokenCount: 1,
    tokensReturned: 0,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    prompt: 'a lighthouse at dusk',
    ...overrides,
  };
}

/** An ISO time `seconds` after the factory's base time. */
export function at(seconds: number): string {
  return new Date(Date.parse('2024-05-01T10:00:00.000Z') + seconds * 1000).toISOString();
}
