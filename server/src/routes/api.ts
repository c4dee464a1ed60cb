import type { FastifyPluginAsync } from 'fastify';
import { generationRoutes } from './generations';
import { meRoutes } from './me';

/** Everything under /api needs a valid Firebase ID token; it is checked before the body is read. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.authenticate);
  await app.register(generationRoutes);
  await app.register(meRoutes);
};
