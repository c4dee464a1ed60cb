import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/identity-verifier';
import { ServiceError } from '../http/errors';
import { defineAppPlugin } from './define-plugin';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Adds `request.user` and `app.authenticate`, the hook every /api route runs first. */
export const authPlugin = defineAppPlugin('auth', ['infrastructure'], async (app) => {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined) throw new ServiceError(401, 'UNAUTHENTICATED');
    try {
      request.user = await app.identity.verify(token);
    } catch {
      throw new ServiceError(401, 'UNAUTHENTICATED');
    }
  });
});

/** The caller of an /api route; the auth hook guarantees it. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw new ServiceError(401, 'UNAUTHENTICATED');
  return request.user;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
  }
}
