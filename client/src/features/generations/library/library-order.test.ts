import { describe, expect, it } from 'vitest';
import { at, buildGeneration } from '@/testing/generation-factory';
import { libraryItems, matchesFilters } from './library-order';

describe('matchesFilters', () => {
  const video = buildGeneration({ kind: 'video', status: 'completed', prompt: 'A Paper Boat on rain' });

  it('keeps what fits every filter given, with the search case-insensitive inside the prompt', () => {
    expect(matchesFilters(video, {})).toBe(true);
    expect(matchesFilters(video, { kind: 'video', status: 'completed', q: 'paper boat' })).toBe(true);
    expect(matchesFilters(video, { q: '  ' })).toBe(true);
  });

  it('drops what misses any one of them', () => {
    expect(matchesFilters(video, { kind: 'image' })).toBe(false);
    expect(matchesFilters(video, { status: 'failed' })).toBe(false);
    expect(matchesFilters(video, { q: 'lighthouse' })).toBe(false);
  });
});

describe('libraryItems', () => {
  const loadedAt = Date.parse(at(10));
  const older = buildGeneration({ id: 'older', createdAt: at(1) });
  const listed = buildGeneration({ id: 'listed', createdAt: at(5) });
  const madeSince = buildGeneration({ id: 'since', createdAt: at(20), kind: 'speech' });
  const elsewhereBefore = buildGeneration({ id: 'before', createdAt: at(3) });

  it('shows listed pages as the store holds them now, newest first, with new ones on top', () => {
    const live = { ...listed, status: 'completed' as const, version: 3 };
    const byId = { older, listed: live, since: madeSince, before: elsewhereBefore };
    const items = libraryItems(['listed', 'older'], byId, {}, loadedAt);
    expect(items.map((item) => item.id)).toEqual(['since', 'listed', 'older']);
    expect(items[1]!.status).toBe('completed');
  });

  it('leaves out a deleted one, and new ones the filters exclude', () => {
    const items = libraryItems(['listed', 'older'], { older, since: madeSince }, { kind: 'image' }, loadedAt);
    expect(items.map((item) => item.id)).toEqual(['older']);
  });
});
