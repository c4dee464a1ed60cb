import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  MAX_API_KEYS_PER_ACCOUNT,
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import { commonErrorResponses, errorBodySchema, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

const tags = ['API keys'];

/**
 * /api/keys: the caller's personal API keys, made, listed and revoked with a signed-in ID token only (an
 * API key is refused here, see auth/api-key-access.ts). Listing and revoking work on every plan, so keys
 * kept from Enterprise can be seen and revoked after a downgrade; making one needs a plan with API access.
 */
export const apiKeyRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);

  routes.get(
    '/keys',
    { schema: { summary: 'List your API keys', tags, response: { 200: apiKeyListSchema, ...commonErrorResponses } } },
    async (request) => {
      const { apiAccess, keys } = await app.apiKeys.list(currentUser(request).uid);
      return { apiAccess, maxKeys: MAX_API_KEYS_PER_ACCOUNT, keys };
    },
  );

  // The secret is in this answer only: no store or proxy may keep it.
  routes.post(
    '/keys',
    {
      schema: {
        summary: 'Create an API key (its secret is shown once)',
        tags,
        body: createApiKeyBodySchema,
        response: { 201: createdApiKeySchema, ...commonErrorResponses, 403: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const creation = await app.apiKeys.create(currentUser(request).uid, request.body);
      switch (creation.outcome) {
        case 'created':
          return reply.status(201).header('cache-control', 'no-store').send(creation.key);
        case 'no-api-access':
          throw new ServiceError(403, 'NO_API_ACCESS');
        case 'too-many':
          throw new ServiceError(409, 'TOO_MANY_API_KEYS');
        case 'closed':
          throw new ServiceError(401, 'UNAUTHENTICATED');
      }
    },
  );

  routes.delete(
    '/keys/:id',
    {
      schema: {
        summary: 'Revoke an API key',
        tags,
        params: apiKeyIdParamsSchema,
        response: { 204: z.null(), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const revoked = await app.apiKeys.revoke(currentUser(request).uid, request.params.id);
      if (!revoked) throw new ServiceError(404, 'NOT_FOUND', 'API key not found.');
      return reply.status(204).send(null);
    },
  );
};
