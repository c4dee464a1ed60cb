import type { FaultReplies } from '../faults/providerGate';

/**
 * Stripe's one error shape, `{ error: { type, message, code?, param?, doc_url? } }`
 * (https://docs.stripe.com/api/errors). The SDK picks its error class by the status and `type`:
 * 400/404 invalid_request_error → StripeInvalidRequestError, 401 → StripeAuthenticationError,
 * 429 → StripeRateLimitError, 5xx api_error → StripeAPIError, idempotency_error → StripeIdempotencyError.
 */
export interface StripeErrorBody {
  error: {
    type: 'invalid_request_error' | 'api_error' | 'idempotency_error' | 'card_error';
    message: string;
    code?: string;
    param?: string;
    doc_url?: string;
  };
}

export interface StripeErrorAnswer {
  status: number;
  body: StripeErrorBody;
}

/** A request Stripe refuses, carrying the answer it refuses with. */
export class StripeRefusal extends Error {
  override name = 'StripeRefusal';
  constructor(readonly answer: StripeErrorAnswer) {
    super(answer.body.error.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`;

export function missingApiKey(): StripeErrorAnswer {
  return {
    status: 401,
    body: {
      error: {
        type: 'invalid_request_error',
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      },
    },
  };
}

/** Stripe shows only the key's last four characters back. */
export function invalidApiKey(key: string): StripeErrorAnswer {
  return {
    status: 401,
    body: { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${maskKey(key)}` } },
  };
}

function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(key.length - prefix.length - 4, 0))}${key.slice(-4)}`;
}

/** An unknown id, named by its object (`customer`, `checkout.session`…). */
export function resourceMissing(objectName: string, id: string, param = 'id'): StripeErrorAnswer {
  return {
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        doc_url: docUrl('resource_missing'),
        message: `No such ${objectName}: '${id}'`,
        param,
      },
    },
  };
}

export function parameterMissing(param: string): StripeErrorAnswer {
  return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

export function parameterUnknown(param: string): StripeErrorAnswer {
  return invalidRequest(`Received unknown parameter: ${param}`, param, 'parameter_unknown');
}

export function parameterInvalid(param: string, message: string): StripeErrorAnswer {
  return invalidRequest(message, param, 'parameter_invalid_string');
}

export function invalidRequest(message: string, param?: string, code?: string): StripeErrorAnswer {
  return {
    status: 400,
    body: {
      error: {
        type: 'invalid_request_error',
        message,
        ...(code === undefined ? {} : { code, doc_url: docUrl(code) }),
        ...(param === undefined ? {} : { param }),
      },
    },
  };
}

export function idempotencyKeyReused(key: string): StripeErrorAnswer {
  return {
    status: 400,
    body: {
      error: {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      },
    },
  };
}

export const apiError = (): StripeErrorBody => ({
  error: { type: 'api_error', message: 'An unknown error occurred' },
});

/** Stripe's answer to too many requests (https://docs.stripe.com/rate-limits). */
export const rateLimited = (): StripeErrorBody => ({
  error: {
    type: 'invalid_request_error',
    code: 'rate_limit',
    doc_url: docUrl('rate_limit'),
    message: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
  },
});

export const stripeFaultReplies: FaultReplies = {
  serverError: apiError,
  rateLimited,
  malformed: { contentType: 'application/json', body: '{"id":"cus_' },
};
