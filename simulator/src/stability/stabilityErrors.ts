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

/**
 * An organization out of credit. Stability's specification does not list it; a real account answers HTTP
 * 429 with this name and message (reported by third-party clients), the status of a rate limit.
 */
export const insufficientBalance = () =>
  stabilityError('insufficient_balance', 'Your organization does not have enough balance to request this action.');

const internalError = () =>
  stabilityError('internal_error', 'An unexpected server error has occurred, please try again later.');

export const imageFaultReplies: FaultReplies = {
  serverError: internalError,
  rateLimited: rateLimitExceeded,
  malformed: { contentType: 'application/json', body: '{"artifacts":[{"base64":"iVBORw0KGgo' },
  overLimit: () => ({ status: 429, body: rateLimitExceeded() }),
  insufficientBalance: () => ({ status: 429, body: insufficientBalance() }),
};

/** The simulated organization's credits (1 credit = $0.01): plenty, unless a fault says none are left. */
export const SIMULATED_CREDITS = 1000;

export const balanceFaultReplies: FaultReplies = {
  serverError: internalError,
  rateLimited: rateLimitExceeded,
  malformed: { contentType: 'application/json', body: '{"credits":' },
  overLimit: () => ({ status: 429, body: rateLimitExceeded() }),
  insufficientBalance: () => ({ status: 200, body: { credits: 0 } }),
};
