import { IDEMPOTENCY_KEY_HEADER, listQuerySchema } from '@mediagen/shared';
import type { FastifyPluginAsync } from 'fastify';
import { ServiceError } from '../http/errors';
import {
  commonErrorResponses,
  errorBodySchema,
  generationIdParamsSchema,
  generationListSchema,
  generationSchema,
} from '../http/schemas';
import { currentUser } from '../plugins/auth';

interface IdParams {
  id: string;
}

/** /api/generations: submit, read, list and cancel the caller's own generations. */
export const generationRoutes: FastifyPluginAsync = async (app) => {
  // The body is checked by the shared schema (its messages are the spec's), not by Fastify's validator.
  app.post(
    '/generations',
    {
      schema: {
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

  app.get(
    '/generations',
    { schema: { response: { 200: generationListSchema, ...commonErrorResponses } } },
    async (request) => {
      const query = listQuerySchema.safeParse(request.query);
      if (!query.success) {
        const issue = query.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        throw new ServiceError(400, 'INVALID_REQUEST', `${where}${issue?.message ?? 'invalid query'}`);
      }
      return app.generations.list(currentUser(request), query.data);
    },
  );

  app.get<{ Params: IdParams }>(
    '/generations/:id',
    { schema: { params: generationIdParamsSchema, response: { 200: generationSchema, ...commonErrorResponses } } },
    async (request) => app.generations.get(currentUser(request), request.params.id),
  );

  app.delete<{ Params: IdParams }>(
    '/generations/:id',
    {
      schema: {
        params: generationIdParamsSchema,
        response: { 200: generationSchema, ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    async (request) => app.generations.cancel(currentUser(request), request.params.id),
  );
};
