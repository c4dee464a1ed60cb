import { IDEMPOTENCY_KEY_HEADER, type Generation, type GenerationRequestInput } from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

/** Answers 202 with the queued generation. A fresh key per click: a retried request never costs twice. */
export function createGeneration(input: GenerationRequestInput): Promise<Generation> {
  return apiRequest<Generation>('/api/generations', {
    method: 'POST',
    body: input,
    headers: { [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() },
  });
}
