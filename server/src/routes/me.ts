import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { closeAccountSchema, meSchema } from '@mediagen/shared';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

/** /api/me: who the caller is and how many tokens of each kind are left; closing the account. */
export const meRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);
  routes.get(
    '/me',
    {
      schema: {
        summary: 'Who you are: plan and tokens left',
        tags: ['Account'],
        response: { 200: meSchema, ...commonErrorResponses },
      },
    },
    async (request) => app.generations.me(currentUser(request)),
  );

  routes.delete(
    '/me',
    {
      schema: {
        summary: 'Close your account',
        description: 'For good: generations, files and tokens go.',
        tags: ['Account'],
        body: closeAccountSchema,
        response: { 204: z.null(), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await app.accounts.close(currentUser(request));
      return reply.status(204).send(null);
    },
  );
};
