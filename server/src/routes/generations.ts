import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_HEADER,
  generationIdParamsSchema,
  generationListSchema,
  generationSchema,
  listQuerySchema,
} from '@mediagen/shared';
import { commonErrorResponses, errorBodySchema, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

/** /api/generations: submit, run again, read, list, cancel and delete the caller's own generations. */
export const generationRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);

  // The body is checked by the service with the shared request schema, whose messages are the spec's.
  routes.post(
    '/generations',
    {
      schema: {
        body: z.unknown(),
        response: {
          202: generationSchema,
          ...commonErrorResponses,
          402: errorBodySchema,
          409: errorBodySchema,
          413: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      const key = Array.isArray(header) ? header[0] : header;
      const { generation, replayed } = await app.generations.submit(currentUser(request), request.body, key);
      // A repeat of an Idempotency-Key answers 202 too, with the generation's current state.
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(202).send(generation);
    },
  );

  routes.post(
    '/generations/:id/again',
    {
      schema: {
        params: generationIdParamsSchema,
        response: { 202: generationSchema, ...commonErrorResponses, 402: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      const key = Array.isArray(header) ? header[0] : header;
      const { generation, replayed } = await app.generations.runAgain(currentUser(request), request.params.id, key);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(202).send(generation);
    },
  );

  routes.get(
    '/generations',
    { schema: { querystring: listQuerySchema, response: { 200: generationListSchema, ...commonErrorResponses } } },
    async (request) => app.generations.list(currentUser(request), request.query),
  );

  routes.get(
    '/generations/:id',
    { schema: { params: generationIdParamsSchema, response: { 200: generationSchema, ...commonErrorResponses } } },
    async (request) => app.generations.get(currentUser(request), request.params.id),
  );

  routes.post(
    '/generations/:id/cancel',
    {
      schema: {
        params: generationIdParamsSchema,
        response: { 200: generationSchema, ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    async (request) => app.generations.cancel(currentUser(request), request.params.id),
  );

  // Deleting one still running cancels it first; its file goes at once.
  routes.delete(
    '/generations/:id',
    { schema: { params: generationIdParamsSchema, response: { 204: z.null(), ...commonErrorResponses } } },
    async (request, reply) => {
      await app.generations.remove(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
