import type { Generation } from '@mediagen/shared';
import type { LibraryFilters } from './api/library-api';

/** Whether a generation belongs in a view with these filters; the server applies the same rules to pages. */
export function matchesFilters(generation: Generation, { kind, status, q }: LibraryFilters): boolean {
  if (kind !== undefined && generation.kind !== kind) return false;
  if (status !== undefined && generation.status !== status) return false;
  const words = q?.trim().toLowerCase();
  return words === undefined || words === '' || generation.prompt.toLowerCase().includes(words);
}

/** Newest first, as the API pages them; the id breaks a tie between two made in the same millisecond. */
export function newestFirst(a: Generation, b: Generation): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * What the library shows: the generations its pages listed, as the store now holds them (live), and those
 * made since it loaded (here or elsewhere) that fit the filters. An id the store no longer holds was deleted.
 */
export function libraryItems(
  listedIds: readonly string[],
  byId: Readonly<Record<string, Generation>>,
  filters: LibraryFilters,
  loadedSince: number,
): Generation[] {
  const listed = new Set(listedIds);
  const items = listedIds.map((id) => byId[id]).filter((item) => item !== undefined);
  const fresh = Object.values(byId).filter(
    (item) => !listed.has(item.id) && Date.parse(item.createdAt) >= loadedSince && matchesFilters(item, filters),
  );
  return [...fresh, ...items].sort(newestFirst);
}
