import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isAdmin } from '../admin/admin-access';
import { ADMIN_COOKIE_PATH, ADMIN_SESSION_COOKIE, AdminSessionSigner, readCookie } from '../admin/admin-session';
import { ServiceError } from '../http/errors';
import { errorBodySchema } from '../http/schemas';
import { bearerToken } from '../plugins/auth';
import { adminLoginPage } from './admin-login-page';

const QUEUES_PATH = '/admin/queues';

type AdminCheck = { outcome: 'admin'; uid: string } | { outcome: 'anonymous' } | { outcome: 'forbidden' };

interface Options {
  clock?: (() => number) | undefined;
}

/**
 * /admin: the login page, the session cookie, and Bull Board at /admin/queues (pages, static files and
 * its /admin/queues/api routes alike) behind the admin check. Admin requests carry either a bearer ID
 * token or the session cookie; anonymous callers get 401, signed-in non-admins 403.
 */
export const adminRoutes: FastifyPluginAsync<Options> = async (app, options) => {
  const { config } = app;
  const sessions = new AdminSessionSigner(config.admin.sessionSecret, config.admin.sessionTtlSeconds, options.clock);

  async function check(request: FastifyRequest): Promise<AdminCheck> {
    const token = bearerToken(request);
    if (token !== undefined) {
      const user = await app.identity.verify(token).catch(() => null);
      if (user === null) return { outcome: 'anonymous' };
      return isAdmin(user, config.admin.emails) ? { outcome: 'admin', uid: user.uid } : { outcome: 'forbidden' };
    }
    const uid = sessions.verify(readCookie(request.headers.cookie, ADMIN_SESSION_COOKIE));
    return uid === null ? { outcome: 'anonymous' } : { outcome: 'admin', uid };
  }

  const secureCookie = (request: FastifyRequest) =>
    request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
  const cookie = (request: FastifyRequest, value: string, maxAge: number) =>
    [
      `${ADMIN_SESSION_COOKIE}=${value}`,
      `Path=${ADMIN_COOKIE_PATH}`,
      `Max-Age=${maxAge}`,
      'HttpOnly',
      // Strict: Bull Board's retry, clean and pause calls can never be made by another site.
      'SameSite=Strict',
      ...(secureCookie(request) ? ['Secure'] : []),
    ].join('; ');

  app.get('/admin', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(adminLoginPage({ emulatorHost: config.firebase.authEmulatorHost })),
  );

  app.post(
    '/admin/session',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['uid', 'expiresAt'],
            properties: { uid: { type: 'string' }, expiresAt: { type: 'string' } },
          },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      // Only a bearer token opens a session: a session cookie must not extend itself.
      const token = bearerToken(request);
      const user = token === undefined ? null : await app.identity.verify(token).catch(() => null);
      if (user === null) throw new ServiceError(401, 'UNAUTHENTICATED');
      if (!isAdmin(user, config.admin.emails)) throw adminOnly();
      const session = sessions.issue(user.uid);
      return reply
        .header('set-cookie', cookie(request, session.value, sessions.ttlSeconds))
        .header('cache-control', 'no-store')
        .send({ uid: user.uid, expiresAt: new Date(session.expiresAt * 1000).toISOString() });
    },
  );

  app.delete('/admin/session', async (request, reply) =>
    reply
      .header('set-cookie', cookie(request, '', 0))
      .status(204)
      .send(),
  );

  await app.register(async (board) => {
    // Replies here rather than throwing: Bull Board installs its own error handler in this scope.
    board.addHook('onRequest', async (request, reply) => {
      const result = await check(request);
      if (result.outcome === 'admin') return;
      request.log.info({ outcome: result.outcome }, 'admin access refused');
      return refuse(request, reply, result.outcome === 'anonymous' ? 401 : 403);
    });

    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(QUEUES_PATH);
    createBullBoard({
      queues: app.generationQueues.bullQueues().map((queue) => new BullMQAdapter(queue)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'MediaGen queues' } },
    });
    await board.register(serverAdapter.registerPlugin(), { prefix: QUEUES_PATH });
  });
};

function adminOnly(): ServiceError {
  return new ServiceError(403, 'FORBIDDEN', 'This page is for administrators only.');
}

async function refuse(request: FastifyRequest, reply: FastifyReply, status: 401 | 403): Promise<FastifyReply> {
  const error = status === 401 ? new ServiceError(401, 'UNAUTHENTICATED') : adminOnly();
  reply.status(status).header('cache-control', 'no-store');
  const isApi = request.url.startsWith(`${QUEUES_PATH}/api/`);
  if (!isApi && (request.headers.accept ?? '').includes('text/html')) {
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><meta charset="utf-8"><title>MediaGen admin</title><p>${error.message} ` +
          `<a href="/admin">Sign in as an administrator</a>.</p>`,
      );
  }
  return reply.send(error.toBody());
}
