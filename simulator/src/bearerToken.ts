import type { FastifyRequest } from 'fastify';

/** The simulator accepts any key: it only checks that one was sent, as a client without a key would not. */
export function hasBearerToken(request: FastifyRequest): boolean {
  return /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
}
