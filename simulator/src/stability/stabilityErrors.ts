import { randomBytes } from 'node:crypto';
import type { FaultReplies } from '../faults/providerGate';

/** Stability's error shape: { id, name, message }, the id being a fresh request id. */
export function stabilityError(name: string, message: string) {
  return { id: randomBytes(16).toString('hex'), name, message };
}

export const imageFaultReplies: FaultReplies = {
  serverError: () =>
    stabilityError('internal_error', 'An unexpected server error has occurred, please try again later.'),
  rateLimited: () =>
    stabilityError(
      'rate_limit_exceeded',
      'You have exceeded the rate limit of 150 requests within a 10 second period.',
    ),
  malformed: { contentType: 'application/json', body: '{"artifacts":[{"base64":"iVBORw0KGgo' },
};
