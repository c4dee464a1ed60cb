import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { notReady } from '../http/errors';
import { errorBodySchema, withSharedSchemas } from '../http/schemas';

const READINESS_TIMEOUT_MS = 1000;
const okSchema = z.object({ status: z.string() });

/**
 * /healthz: the process answers. /readyz: Redis and PostgreSQL answer within a second and the update
 * stream is listening: a server that cannot read the record or tell sockets what changed takes no traffic.
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);
  routes.get('/healthz', { schema: { response: { 200: okSchema } } }, async () => ({ status: 'ok' }));
  routes.get('/readyz', { schema: { response: { 200: okSchema, 503: errorBodySchema } } }, async () => {
    const [redis, database] = await Promise.all([
      withTimeout(
        app.redis.ping().then((answer) => answer === 'PONG'),
        READINESS_TIMEOUT_MS,
      ),
      app.database.isReady(READINESS_TIMEOUT_MS),
    ]);
    if (!redis || !database || !app.updates.isListening()) throw notReady();
    return { status: 'ok' };
  });
};

async function withTimeout(check: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
  try {
    return await Promise.race([check.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
