import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TOKEN_SYNC_MAX_AGE_MS } from '@mediagen/shared';
import { APP_SESSION_COOKIE, readCookie, sessionCookie } from '../auth/cookie-sessions';
import { confirmSignIn } from '../auth/fresh-sign-in';
import { ServiceError } from '../http/errors';
import { commonErrorResponses, errorBodySchema, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

const sessionSchema = z.object({ uid: z.string(), expiresAt: z.string() });

const cookieFor = (request: FastifyRequest, value: string, maxAgeSeconds: number, publicUrl: string | null) =>
  sessionCookie(APP_SESSION_COOKIE, value, {
    path: '/',
    maxAgeSeconds,
    secure: request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false),
  });

/**
 * POST /api/session, token sync's sign-in half (spec §7): an ID token under 5 minutes old, as a bearer,
 * whose sign-in the identity service confirms at this moment (a revoked one may still pass the API's
 * cached check), opens a session held on the server behind an HttpOnly cookie of the app's origin
 * (reached through the same-origin URL the client is configured with). It sits under /api: authenticated
 * and rate limited.
 */
export const sessionOpenRoutes: FastifyPluginAsync = async (app) => {
  withSharedSchemas(app).post(
    '/session',
    { schema: { response: { 200: sessionSchema, ...commonErrorResponses } } },
    async (request, reply) => {
      const user = currentUser(request);
      if (app.clock() - user.tokenIssuedAtMs > TOKEN_SYNC_MAX_AGE_MS) throw new ServiceError(401, 'TOKEN_TOO_OLD');
      await confirmSignIn(app.identity, user);
      const session = await app.accounts.openSession(user);
      if (session === null) throw new ServiceError(401, 'UNAUTHENTICATED');
      return reply
        .header('set-cookie', cookieFor(request, session.id, app.appSessions.ttlSeconds, app.config.publicUrl))
        .header('cache-control', 'no-store')
        .send({ uid: user.uid, expiresAt: new Date(session.expiresAtMs).toISOString() });
    },
  );
};

/**
 * DELETE /api/session, token sync's sign-out half: ends the session its cookie names and clears the
 * cookie. It needs no token (the client may already be signed out), and does nothing without a cookie.
 */
export const sessionCloseRoutes: FastifyPluginAsync = async (app) => {
  withSharedSchemas(app).delete(
    '/api/session',
    { schema: { response: { 204: z.null(), 500: errorBodySchema } } },
    async (request, reply) => {
      await app.appSessions.end(readCookie(request.headers.cookie, APP_SESSION_COOKIE));
      return reply
        .header('set-cookie', cookieFor(request, '', 0, app.config.publicUrl))
        .header('cache-control', 'no-store')
        .status(204)
        .send(null);
    },
  );
};
