import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IdentityRefused, type AuthUser } from '../auth/identity-verifier';
import { ServiceError } from '../http/errors';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer token of a request, if it carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * Adds `request.user` and `app.identify`, which sets it when the bearer token is valid and never refuses
 * (the rate limiter needs to know who is asking before anyone is turned away). It sets
 * `request.identityUnavailable` when the identity service, not the token, was at fault.
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('user', null);
    app.decorateRequest('identityUnavailable', false);
    app.decorate('identify', async (request: FastifyRequest) => {
      if (request.user !== null) return;
      const token = bearerToken(request);
      if (token === undefined) return;
      try {
        request.user = await app.identity.verify(token);
      } catch (error) {
        request.identityUnavailable = !(error instanceof IdentityRefused);
      }
    });
  },
  { name: 'auth', dependencies: ['infrastructure'], fastify: '5.x' },
);

/** The caller of an /api route; the auth hook guarantees it. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw new ServiceError(401, 'UNAUTHENTICATED');
  return request.user;
}

declare module 'fastify' {
  interface FastifyInstance {
    identify(request: FastifyRequest): Promise<void>;
  }
}
