import type { Generation } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * Stops a queued or running generation: 200 with it canceled and its token settled (returned while no
 * paid provider call was made, spent after one); 409 ALREADY_FINISHED when it ended first.
 */
export function cancelGeneration(id: string): Promise<Generation> {
  return apiRequest<Generation>(`/api/generations/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
}

/** One generation as it is now (after a cancel lost to its ending, to show how it ended). */
export function getGeneration(id: string): Promise<Generation> {
  return apiRequest<Generation>(`/api/generations/${encodeURIComponent(id)}`);
}
