import type { GenerationList } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/** Enough recent history to find the latest generation of each kind. */
const RESYNC_LIMIT = 20;

export function listRecentGenerations(): Promise<GenerationList> {
  return apiRequest<GenerationList>(`/api/generations?limit=${RESYNC_LIMIT}`);
}
