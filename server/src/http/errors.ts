import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_MESSAGES, type ApiError, type ErrorBody, type ErrorCode } from '@mediagen/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

  toBody(): ErrorBody {
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

/**
 * Fastify's own errors, each with a fixed message: their texts quote the request (a content type, a URL),
 * and nothing a client sent is ever echoed back.
 */
const FASTIFY_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: ERROR_MESSAGES.PAYLOAD_TOO_LARGE },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'INVALID_REQUEST',
    message: 'Invalid request: the body must be application/json.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_REQUEST', message: 'Invalid request: the body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'INVALID_REQUEST',
    message: 'Invalid request: the body is not valid JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'INVALID_REQUEST',
    message: 'Invalid request: Content-Length does not match the body.',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'INVALID_REQUEST', message: 'Invalid request: the URL is malformed.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'INVALID_REQUEST', message: 'Invalid request: the URL is too long.' },
};

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

function statusCodeOf(error: FastifyError): number | undefined {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

const body = (code: ErrorCode, message: string = ERROR_MESSAGES[code]): ErrorBody => ({ error: { code, message } });

/** Maps any thrown error to the one error shape; 5xx details are logged, never sent. */
export function toErrorResponse(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof ServiceError) return { status: error.statusCode, body: error.toBody() };
  // Schema validation messages name the schema's fields and rules, never the values sent.
  if (error.validation) return { status: 400, body: body('INVALID_REQUEST', `Invalid request: ${error.message}`) };
  const known = FASTIFY_ERRORS[error.code];
  if (known) return { status: known.status, body: body(known.code, known.message) };
  if (isRedisUnavailableError(error)) return { status: 503, body: notReady().toBody() };
  const status = statusCodeOf(error);
  if (status !== undefined && status < 500) return { status, body: body(CODE_BY_STATUS[status] ?? 'INVALID_REQUEST') };
  return { status: 500, body: body('INTERNAL') };
}

function answer(request: FastifyRequest, reply: FastifyReply, error: FastifyError) {
  const { status, body: errorBody } = toErrorResponse(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: errorBody.error.code, status }, errorBody.error.message);
  return reply.status(status).send(errorBody);
}

/** Fastify's `frameworkErrors`: a malformed URL or an over-long path parameter, before any route runs. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void answer(request, reply, error);
}

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses (headers too large, malformed HTTP,
 * timeouts) never reach a route; they are answered in the same shape, then the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Invalid request: the headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Invalid request: it took too long to arrive.']
        : [400, 'Invalid request: malformed HTTP.'];
  const text = JSON.stringify(body('INVALID_REQUEST', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => answer(request, reply, error));
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send(body('NOT_FOUND', 'There is nothing at this address.')),
  );
}
