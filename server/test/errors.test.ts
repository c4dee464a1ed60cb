import type { FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ServiceError, toErrorResponse } from '../src/http/errors';

const fastifyError = (message: string, extra: Partial<FastifyError> = {}) =>
  Object.assign(new Error(message), extra) as FastifyError;

describe('toErrorResponse', () => {
  it('answers a service error with its status, code and message', () => {
    expect(toErrorResponse(new ServiceError(402, 'TOKENS_EXHAUSTED', 'over') as unknown as FastifyError)).toEqual({
      status: 402,
      body: { error: { code: 'TOKENS_EXHAUSTED', message: 'over' } },
    });
  });

  it('never sends the details of an unexpected error', () => {
    const { status, body } = toErrorResponse(fastifyError('secret detail at /srv/app.ts:12'));
    expect(status).toBe(500);
    expect(body).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong. Please try again.' } });
  });

  it('maps an unreachable Redis to 503 NOT_READY', () => {
    for (const error of [
      fastifyError("Stream isn't writeable and enableOfflineQueue options is false"),
      fastifyError('Connection is closed.'),
      fastifyError('connect ECONNREFUSED 127.0.0.1:6379', { code: 'ECONNREFUSED' }),
    ]) {
      expect(toErrorResponse(error)).toMatchObject({ status: 503, body: { error: { code: 'NOT_READY' } } });
    }
  });

  it('maps validation, parse and size errors', () => {
    expect(toErrorResponse(fastifyError('body/kind must be string', { validation: [] })).status).toBe(400);
    expect(
      toErrorResponse(fastifyError('bad json', { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
    expect(toErrorResponse(fastifyError('too big', { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }))).toEqual({
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large.' } },
    });
    expect(toErrorResponse(fastifyError('slow down', { statusCode: 429 })).body.error.code).toBe('RATE_LIMITED');
  });
});
