import { randomBytes } from 'node:crypto';
import type { FaultReplies } from '../faults/providerGate';

/**
 * Stability v1's error shape: { id, name, message }, the id being a fresh request id
 * (Stability-AI/rest-api-support, spec/v1.yaml, components.schemas.Error).
 */
export function stabilityError(name: string, message: string) {
  return { id: randomBytes(16).toString('hex'), name, message };
}

const rateLimitExceeded = () =>
  stabilityError(
    'rate_limit_exceeded',
    'You have exceeded the rate limit of 150 requests within a 10 second period, and have been timed out for 60 seconds.',
  );

export const imageFaultReplies: FaultReplies = {
  serverError: () =>
    stabilityError('internal_error', 'An unexpected server error has occurred, please try again later.'),
  rateLimited: rateLimitExceeded,
  malformed: { contentType: 'application/json', body: '{"artifacts":[{"base64":"iVBORw0KGgo' },
  overLimit: () => ({ status: 429, body: rateLimitExceeded() }),
};
