import {
  IDEMPOTENCY_KEY_HEADER,
  type Generation,
  type GenerationList,
  type GenerationKind,
  type GenerationStatus,
} from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

export interface LibraryFilters {
  kind?: GenerationKind | undefined;
  status?: GenerationStatus | undefined;
  /** Words to find in prompts. */
  q?: string | undefined;
}

/** One page of the caller's generations, newest first; pass the previous page's `nextCursor` for the next. */
export function listGenerations(
  filters: LibraryFilters,
  cursor: string | null,
  limit: number,
): Promise<GenerationList> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (filters.kind !== undefined) query.set('kind', filters.kind);
  if (filters.status !== undefined) query.set('status', filters.status);
  if (filters.q !== undefined && filters.q.trim() !== '') query.set('q', filters.q.trim());
  if (cursor !== null) query.set('cursor', cursor);
  return apiRequest<GenerationList>(`/api/generations?${query.toString()}`);
}

/** Deletes a generation and its file; one still running is canceled first. */
export function deleteGeneration(id: string): Promise<void> {
  return apiRequest<void>(`/api/generations/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** A new generation with the same settings, charged as usual. */
export function runAgain(id: string): Promise<Generation> {
  return apiRequest<Generation>(`/api/generations/${encodeURIComponent(id)}/again`, {
    method: 'POST',
    headers: { [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() },
  });
}
