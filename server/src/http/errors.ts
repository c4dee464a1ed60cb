import { ERROR_MESSAGES, type ApiError, type ErrorBody, type ErrorCode } from '@mediagen/shared';
import type { FastifyError, FastifyInstance } from 'fastify';

/** An expected failure with its HTTP status; services throw it, the one error handler answers it. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string = ERROR_MESSAGES[code],
  ) {
    super(message);
  }

  static from(statusCode: number, error: ApiError): ServiceError {
    return new ServiceError(statusCode, error.code, error.message);
  }

  toBody(): { error: ApiError } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const notFound = () => new ServiceError(404, 'NOT_FOUND');
export const notReady = () => new ServiceError(503, 'NOT_READY');

const REDIS_DOWN_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Reached the max retries per request limit',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
];

/** ioredis and BullMQ report an unreachable Redis with these; they mean "try again later", not a bug. */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && REDIS_DOWN_MESSAGES.includes(code)) return true;
  return REDIS_DOWN_MESSAGES.some((fragment) => error.message.includes(fragment));
}

const FASTIFY_CODE_STATUS: Record<string, [number, ErrorCode]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [400, 'INVALID_REQUEST'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_REQUEST'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_REQUEST'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_REQUEST'],
};

function statusCodeOf(error: FastifyError): number | undefined {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

/** Maps any thrown error to the one error shape; 5xx details are logged, never sent. */
export function toErrorResponse(error: FastifyError): { status: number; body: ErrorBody | { error: ApiError } } {
  if (error instanceof ServiceError) return { status: error.statusCode, body: error.toBody() };
  if (error.validation) {
    return { status: 400, body: { error: { code: 'INVALID_REQUEST', message: error.message } } };
  }
  const known = FASTIFY_CODE_STATUS[error.code];
  if (known) {
    const [status, code] = known;
    const message =
      code === 'PAYLOAD_TOO_LARGE'
        ? ERROR_MESSAGES.PAYLOAD_TOO_LARGE
        : `${ERROR_MESSAGES.INVALID_REQUEST} ${error.message}`;
    return { status, body: { error: { code, message } } };
  }
  if (error instanceof SyntaxError && statusCodeOf(error) === 400) {
    return { status: 400, body: { error: { code: 'INVALID_REQUEST', message: ERROR_MESSAGES.INVALID_REQUEST } } };
  }
  if (isRedisUnavailableError(error)) return { status: 503, body: notReady().toBody() };
  const status = statusCodeOf(error);
  if (status === 429)
    return { status, body: { error: { code: 'RATE_LIMITED', message: ERROR_MESSAGES.RATE_LIMITED } } };
  if (status !== undefined && status < 500) {
    const code: ErrorCode =
      status === 401
        ? 'UNAUTHENTICATED'
        : status === 403
          ? 'FORBIDDEN'
          : status === 404
            ? 'NOT_FOUND'
            : 'INVALID_REQUEST';
    return { status, body: { error: { code, message: error.message || ERROR_MESSAGES[code as ErrorCode] } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: ERROR_MESSAGES.INTERNAL } } };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error.code, status }, body.error.message);
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: { code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found.` },
    }),
  );
}
