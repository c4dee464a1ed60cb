import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../http/schemas';
import { notReady } from '../http/errors';

const READINESS_TIMEOUT_MS = 1000;

/** /healthz: the process answers. /readyz: Redis answers within a second and the queue readers are connected. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const okSchema = { type: 'object', required: ['status'], properties: { status: { type: 'string' } } } as const;
  app.get('/healthz', { schema: { response: { 200: okSchema } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { response: { 200: okSchema, 503: errorBodySchema } } }, async () => {
    if (!(await app.generationQueues.isReady(READINESS_TIMEOUT_MS))) throw notReady();
    return { status: 'ok' };
  });
};
