import type { FastifyPluginAsync } from 'fastify';
import { commonErrorResponses, meSchema } from '../http/schemas';
import { currentUser } from '../plugins/auth';

/** /api/me: who the caller is and how many tokens of each kind are left. */
export const meRoutes: FastifyPluginAsync = async (app) => {
  app.get('/me', { schema: { response: { 200: meSchema, ...commonErrorResponses } } }, async (request) =>
    app.generations.me(currentUser(request)),
  );
};
