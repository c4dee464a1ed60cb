import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeys, looksLikeApiKey } from '@mediagen/core';
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
 *
 * A bearer with the API key prefix is checked as a key (app.apiKeys): its owner is the caller, as long as
 * the identity service still has the account enabled (the same cached account read as ID tokens'). A key
 * that is malformed, unknown, revoked or expired leaves the caller unknown, like a bad ID token: a 401
 * that does not say which.
 */
export const authPlugin = fp(
  async (app) => {
    const { config } = app;
    const clock = () => app.clock();
    app.decorate(
      'apiKeys',
      new ApiKeys(app.database.db, { hmacSecret: config.apiKeyHmacSecret, plans: config.plans, clock }),
    );
    app.decorateRequest('user', null);
    app.decorateRequest('identityUnavailable', false);

    async function keyOwner(key: string): Promise<AuthUser> {
      const found = await app.apiKeys.verify(key);
      if (found === null) throw new IdentityRefused('invalid');
      const account = await app.identity.account(found.uid);
      if (!account.exists) throw new IdentityRefused('deleted');
      if (account.disabled) throw new IdentityRefused('disabled');
      return {
        uid: found.uid,
        email: account.email,
        emailVerified: account.emailVerified,
        authTimeSeconds: Math.floor(found.createdAt.getTime() / 1000),
        tokenIssuedAtMs: app.clock(),
        tokenExpiresAtMs: found.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER,
        apiKey: { id: found.id, scopes: found.scopes, planAllowsApi: found.planAllowsApi },
      };
    }

    app.decorate('identify', async (request: FastifyRequest) => {
      if (request.user !== null) return;
      const token = bearerToken(request);
      if (token === undefined) return;
      try {
        request.user = looksLikeApiKey(token) ? await keyOwner(token) : await app.identity.verify(token);
      } catch (error) {
        request.identityUnavailable = !(error instanceof IdentityRefused);
        // The client hears 503 NOT_READY and tries again; operators read here what the service said.
        if (request.identityUnavailable)
          request.log.warn({ err: error }, 'the identity service could not check a sign-in');
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
    /** Personal API keys: made, listed and revoked by their owners, checked on every request that bears one. */
    apiKeys: ApiKeys;
  }
}
