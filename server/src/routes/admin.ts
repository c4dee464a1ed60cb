import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { traceIdOf } from '@mediagen/core';
import { adminAccessBySession, isAdmin, type AdminOutcome } from '../admin/admin-access';
import { adminRateLimit, adminRateLimitNamespace } from '../admin/admin-rate-limit';
import {
  ADMIN_COOKIE_PATH,
  ADMIN_SESSION_COOKIE,
  APP_SESSION_COOKIE,
  readCookie,
  sessionCookie,
} from '../auth/cookie-sessions';
import { batchedRequestCounter } from '../http/batched-rate-limit-store';
import { ServiceError } from '../http/errors';
import { BUDGET_SCOPES, SupportMailUnavailable, answerSupportRequest, type BudgetScope } from '@mediagen/core';
import {
  GENERATION_KINDS,
  PROVIDERS,
  answerSupportRequestSchema,
  choiceOf,
  generationIdParamsSchema,
  isGenerationId,
  killSwitchSchema,
  operatorGenerationSchema,
  planChangeSchema,
  setBudgetSchema,
  setPlanSchema,
  singleLineText,
  spendQuerySchema,
  spendReportSchema,
  salesListQuerySchema,
  salesListSchema,
  supportIdParamsSchema,
  supportListQuerySchema,
  supportListSchema,
  supportRequestSchema,
} from '@mediagen/shared';
import { commonErrorResponses, errorBodySchema, withSharedSchemas } from '../http/schemas';
import { bearerToken } from '../plugins/auth';
import { adminLoginPage } from './admin-login-page';

const QUEUES_PATH = '/admin/queues';

type AdminCheck = { outcome: 'admin'; uid: string } | { outcome: Exclude<AdminOutcome, 'admin'> };

/**
 * /admin: the login page, the session cookie, and Bull Board at /admin/queues (pages, static files and
 * its /admin/queues/api routes alike) behind the admin check. Admin requests carry either a bearer ID
 * token or the session cookie; anonymous callers get 401, signed-in non-admins 403. Every request is
 * counted first (RATE_LIMIT_PER_MINUTE per user, or per IP before sign-in): the admin check reads the
 * account from the identity service each time, and no caller may make it do so without bound.
 *
 * Admin power is checked against the account as it is now, on every request: a removed claim, an
 * unlisted or unverified email, a disabled, deleted or revoked account ends admin access at once, and
 * signing out ends the session on the server. A session stands only as long as the sign-in that opened it
 * (its token's auth_time), and the app's session lends admin rights for ADMIN_SESSION_TTL_SECONDS at most.
 */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const sessions = app.adminSessions;
  const sessionRules = { adminEmails: config.admin.emails, adminSessionTtlMs: config.admin.sessionTtlSeconds * 1000 };

  // The admin UI's own session, else the app's (token sync): an admin signed in to the app on the same
  // origin needs no second sign-in.
  const sessionCookies = [
    ['admin', sessions, ADMIN_SESSION_COOKIE],
    ['app', app.appSessions, APP_SESSION_COOKIE],
  ] as const;

  async function sessionOf(request: FastifyRequest) {
    for (const [kind, store, name] of sessionCookies) {
      const id = readCookie(request.headers.cookie, name);
      const session = await store.find(id);
      if (session !== null) return { kind, store, id, session };
    }
    return null;
  }

  /** Who a request comes from, for counting, without reading any account. */
  async function callerOf(request: FastifyRequest): Promise<string> {
    const token = bearerToken(request);
    const uid =
      token === undefined
        ? ((await sessionOf(request))?.session.uid ?? null)
        : await app.identity.tokenOwner(token).catch(() => null);
    return uid === null ? `ip:${request.ip}` : `uid:${uid}`;
  }

  app.addHook(
    'onRequest',
    adminRateLimit({
      count: batchedRequestCounter(app.redis, adminRateLimitNamespace(config.queuePrefix)),
      max: config.limits.rateLimitPerMinute,
      caller: callerOf,
    }),
  );

  async function check(request: FastifyRequest): Promise<AdminCheck> {
    const token = bearerToken(request);
    if (token !== undefined) {
      const user = await app.identity.verify(token, { fresh: true }).catch(() => null);
      if (user === null) return { outcome: 'anonymous' };
      const account = await app.identity.account(user.uid);
      return isAdmin(account, config.admin.emails) ? { outcome: 'admin', uid: user.uid } : { outcome: 'forbidden' };
    }
    const found = await sessionOf(request);
    if (found === null) return { outcome: 'anonymous' };
    const { kind, store, id, session } = found;
    const account = await app.identity.account(session.uid, { fresh: true }).catch(() => null);
    if (account === null) {
      await store.end(id);
      return { outcome: 'anonymous' };
    }
    const access = adminAccessBySession(kind, session, account, sessionRules, app.clock());
    if (access.endSession) await store.end(id);
    return access.outcome === 'admin' ? { outcome: 'admin', uid: session.uid } : { outcome: access.outcome };
  }

  const secureCookie = (request: FastifyRequest) =>
    request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
  // SameSite=Strict: Bull Board's retry, clean and pause calls can never be made by another site.
  const cookie = (request: FastifyRequest, value: string, maxAge: number) =>
    sessionCookie(ADMIN_SESSION_COOKIE, value, {
      path: ADMIN_COOKIE_PATH,
      maxAgeSeconds: maxAge,
      secure: secureCookie(request),
    });

  app.get('/admin', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(adminLoginPage({ emulatorHost: config.firebase.authEmulatorHost })),
  );

  // The session routes validate with the shared schemas in a scope of their own: Bull Board's routes below
  // bring JSON schemas for Fastify's default compilers.
  await app.register(async (scope) => {
    withSharedSchemas(scope).post(
      '/admin/session',
      {
        schema: {
          response: {
            200: z.object({ uid: z.string(), expiresAt: z.string() }),
            401: errorBodySchema,
            403: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        // Only a bearer token opens a session: a session cookie must not extend itself.
        const token = bearerToken(request);
        const user = token === undefined ? null : await app.identity.verify(token, { fresh: true }).catch(() => null);
        if (user === null) throw new ServiceError(401, 'UNAUTHENTICATED');
        if (!isAdmin(await app.identity.account(user.uid), config.admin.emails)) throw adminOnly();
        const session = await sessions.open(user);
        return reply
          .header('set-cookie', cookie(request, session.id, sessions.ttlSeconds))
          .header('cache-control', 'no-store')
          .send({ uid: user.uid, expiresAt: new Date(session.expiresAtMs).toISOString() });
      },
    );
  });

  // Plans and spend: read and set by operators (the queue CLI's `plan`, `spend`, `budget` and
  // `kill-switch` do the same).
  await app.register(async (scope) => {
    scope.decorateRequest('adminUid', null);
    scope.addHook('onRequest', async (request) => {
      const result = await check(request);
      if (result.outcome !== 'admin') {
        throw result.outcome === 'anonymous' ? new ServiceError(401, 'UNAUTHENTICATED') : adminOnly();
      }
      request.adminUid = result.uid;
    });
    const routes = withSharedSchemas(scope);
    const params = z.object({ uid: singleLineText().min(1).max(128) });
    const responses = { 200: planChangeSchema, ...commonErrorResponses };
    routes.get('/admin/api/users/:uid/plan', { schema: { params, response: responses } }, async (request) =>
      app.plans.get(request.params.uid),
    );
    routes.get(
      '/admin/api/spend',
      { schema: { querystring: spendQuerySchema, response: { 200: spendReportSchema, ...commonErrorResponses } } },
      async (request) => {
        const { by, days } = request.query;
        const [status, totals] = await Promise.all([app.spend.controls.status(), app.spend.ledger.totals(by, days)]);
        return { ...status, by, days, totals };
      },
    );
    routes.put(
      '/admin/api/budgets/:scope',
      {
        schema: {
          params: z.object({ scope: z.enum(BUDGET_SCOPES as [BudgetScope, ...BudgetScope[]]) }),
          body: setBudgetSchema,
          response: { 200: z.object({ scope: z.string(), dailyUsd: z.number().nullable() }), ...commonErrorResponses },
        },
      },
      async (request) => {
        await app.spend.controls.setBudget(request.params.scope, request.body.dailyUsd);
        return { scope: request.params.scope, dailyUsd: request.body.dailyUsd };
      },
    );
    routes.put(
      '/admin/api/kill-switch',
      {
        schema: {
          body: killSwitchSchema,
          response: { 200: z.object({ on: z.boolean() }), ...commonErrorResponses },
        },
      },
      async (request) => {
        await app.spend.controls.setKillSwitch(request.body.on, request.body.reason ?? 'switched by an administrator');
        return { on: request.body.on };
      },
    );
    // Credit was bought: the provider's paid calls go out again without waiting for a worker's balance check.
    routes.delete(
      '/admin/api/out-of-credit/:provider',
      {
        schema: {
          params: z.object({ provider: choiceOf(PROVIDERS, `provider must be one of ${PROVIDERS.join(', ')}`) }),
          response: { 200: z.object({ provider: z.string(), cleared: z.boolean() }), ...commonErrorResponses },
        },
      },
      async (request) => ({
        provider: request.params.provider,
        cleared: await app.spend.controls.credit.clear(request.params.provider),
      }),
    );
    // A generation with the provider's answer behind its failure: what the creator is never shown.
    routes.get(
      '/admin/api/generations/:id',
      {
        schema: {
          params: generationIdParamsSchema,
          response: { 200: operatorGenerationSchema, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { id } = request.params;
        const record = isGenerationId(id) ? await app.reads.generation(id) : null;
        if (record === null) throw new ServiceError(404, 'NOT_FOUND');
        return {
          id: record.id,
          uid: record.uid,
          kind: record.kind,
          status: record.status,
          token: record.token,
          paidCalls: record.paidCalls,
          providerTaskId: record.providerTaskId,
          error: record.error,
          providerError: record.providerError,
          createdAt: record.createdAt.toISOString(),
          finishedAt: record.finishedAt?.toISOString() ?? null,
          traceId: traceIdOf(record.traceParent),
        };
      },
    );
    // Contact Sales requests (issue 38), beside the support form's; `pnpm queues sales` reads the same.
    routes.get(
      '/admin/api/sales',
      { schema: { querystring: salesListQuerySchema, response: { 200: salesListSchema, ...commonErrorResponses } } },
      async (request, reply) => {
        const { limit, cursor } = request.query;
        reply.header('cache-control', 'no-store');
        return app.sales.list({ limit, before: cursor });
      },
    );
    // The support form's requests (issue 37); `pnpm queues support` reads and answers the same.
    routes.get(
      '/admin/api/support',
      {
        schema: { querystring: supportListQuerySchema, response: { 200: supportListSchema, ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { status, limit, cursor } = request.query;
        reply.header('cache-control', 'no-store');
        return app.support.requests.list({ status, limit, before: cursor });
      },
    );
    routes.post(
      '/admin/api/support/:id/answer',
      {
        schema: {
          params: supportIdParamsSchema,
          body: answerSupportRequestSchema,
          response: { 200: supportRequestSchema, 409: errorBodySchema, ...commonErrorResponses },
        },
      },
      async (request) => {
        const outcome = await answerSupportRequest(app.support, request.params.id, {
          reply: request.body.reply ?? null,
          answeredBy: request.adminUid ?? 'admin',
        }).catch((error: unknown) => {
          request.log.error({ err: error, supportRequest: request.params.id }, 'support reply not sent');
          throw new ServiceError(
            503,
            'NOT_READY',
            error instanceof SupportMailUnavailable
              ? 'Replies cannot be sent: SMTP_URL is not set. The request is still open.'
              : 'The reply could not be sent. The request is still open; try again shortly.',
          );
        });
        if (outcome.outcome === 'not_found') throw new ServiceError(404, 'NOT_FOUND', 'Support request not found.');
        if (outcome.outcome === 'already_answered') throw new ServiceError(409, 'ALREADY_ANSWERED');
        request.log.info(
          { supportRequest: outcome.request.id, emailed: outcome.emailed, via: app.support.mailer.via },
          'support request answered',
        );
        return outcome.request;
      },
    );
    routes.put(
      '/admin/api/users/:uid/plan',
      { schema: { params, body: setPlanSchema, response: responses } },
      async (request) =>
        app.plans.set(request.params.uid, request.body.plan, request.body.reason ?? 'plan set by an administrator'),
    );
  });

  app.delete('/admin/session', async (request, reply) => {
    await sessions.end(readCookie(request.headers.cookie, ADMIN_SESSION_COOKIE));
    return reply
      .header('set-cookie', cookie(request, '', 0))
      .header('cache-control', 'no-store')
      .status(204)
      .send();
  });

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
      queues: GENERATION_KINDS.map((kind) => new BullMQAdapter(app.jobs.queue(kind))),
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
