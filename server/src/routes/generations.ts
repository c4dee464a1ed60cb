import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_HEADER,
  generationIdParamsSchema,
  generationListSchema,
  generationSchema,
  isFinalStatus,
  listQuerySchema,
} from '@mediagen/shared';
import { streamGenerationEvents, waitForEnd } from '../generations/generation-events';
import { MAX_PREFER_WAIT_SECONDS } from '../http/prefer-wait';
import { commonErrorResponses, errorBodySchema, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

const tags = ['Generations'];

/** A Generation answer, with what its status means here. */
const answer = (description: string) => ({
  description,
  content: { 'application/json': { schema: generationSchema } },
});

const submitHeadersSchema = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .optional()
    .describe(
      'Up to 128 of A–Z a–z 0–9 _ . : -. The same key with the same body answers the same generation (`idempotent-replayed: true`); with another body, 409 IDEMPOTENCY_CONFLICT.',
    ),
  prefer: z
    .string()
    .optional()
    .describe(
      `\`wait=N\` (RFC 7240): hold the answer up to N seconds (at most ${MAX_PREFER_WAIT_SECONDS}) for the generation to end. Ended: 201 (200 for a replayed key) with \`Preference-Applied: wait=N\`; still running: 202 as without it.`,
    ),
});

const eventsHeadersSchema = z.looseObject({
  'last-event-id': z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .describe('The last event id (a version) a reconnecting client saw; at the final version the answer is 204.'),
});

/** /api/generations: submit, run again, read, list, cancel and delete the caller's own generations. */
export const generationRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);

  // The body is checked by the service with the shared request schema, whose messages are the spec's.
  routes.post(
    '/generations',
    {
      schema: {
        summary: 'Submit a generation',
        description:
          'Charges a token and queues the generation; answers its state (202). Follow it with GET /api/generations/{id}, its event stream, or `Prefer: wait=N`.',
        tags,
        headers: submitHeadersSchema,
        body: z.unknown(),
        response: {
          200: answer('Ended within the wait, for a replayed Idempotency-Key'),
          201: answer('Ended within the wait asked for by `Prefer: wait` (Location: the generation)'),
          202: answer('Queued (or still running when the wait ran out)'),
          ...commonErrorResponses,
          402: errorBodySchema,
          409: errorBodySchema,
          413: errorBodySchema,
          422: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      const key = Array.isArray(header) ? header[0] : header;
      const user = currentUser(request);
      const { generation, replayed } = await app.generations.submit(user, request.body, key);
      // A repeat of an Idempotency-Key answers 202 too, with the generation's current state.
      if (replayed) reply.header('idempotent-replayed', 'true');
      const waited = await waitForEnd(app, request, reply, user, generation);
      if (waited === null) return reply.status(202).send(generation);
      reply.header('preference-applied', `wait=${waited.seconds}`);
      if (!isFinalStatus(waited.generation.status)) return reply.status(202).send(waited.generation);
      return reply
        .status(replayed ? 200 : 201)
        .header('location', `/api/generations/${waited.generation.id}`)
        .send(waited.generation);
    },
  );

  routes.post(
    '/generations/:id/again',
    {
      schema: {
        summary: 'Run a generation again',
        description: 'Submits the same request again, as a new generation (a new token is charged).',
        tags,
        params: generationIdParamsSchema,
        response: {
          202: generationSchema,
          ...commonErrorResponses,
          402: errorBodySchema,
          409: errorBodySchema,
          422: errorBodySchema,
        },
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
    {
      schema: {
        summary: 'List your generations',
        description: 'Newest first; `nextCursor` fetches the next, older page (null on the last).',
        tags,
        querystring: listQuerySchema,
        response: { 200: generationListSchema, ...commonErrorResponses },
      },
    },
    async (request) => app.generations.list(currentUser(request), request.query),
  );

  routes.get(
    '/generations/:id',
    {
      schema: {
        summary: 'Read a generation',
        tags,
        params: generationIdParamsSchema,
        response: { 200: generationSchema, ...commonErrorResponses },
      },
    },
    async (request) => app.generations.get(currentUser(request), request.params.id),
  );

  routes.get(
    '/generations/:id/events',
    {
      schema: {
        summary: "Stream a generation's updates",
        description:
          'Server-sent events: `generation:update` with the whole Generation (event id: its `version`), from the current state to the final one, then the stream ends. `generation:removed` if it is deleted meanwhile. A comment line every 15 s keeps the connection open. At most SOCKETS_PER_USER open streams per user (429 TOO_MANY_CONNECTIONS past it).',
        tags,
        params: generationIdParamsSchema,
        headers: eventsHeadersSchema,
        response: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          204: z.null().describe('Reconnected after the final state: nothing more will come'),
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const lastEventId = request.headers['last-event-id'];
      return streamGenerationEvents(
        app,
        reply,
        currentUser(request),
        request.params.id,
        lastEventId === undefined ? undefined : Number(lastEventId),
      );
    },
  );

  routes.post(
    '/generations/:id/cancel',
    {
      schema: {
        summary: 'Cancel a generation',
        description: 'Its token comes back unless paid work had started (`paidWorkStarted`).',
        tags,
        params: generationIdParamsSchema,
        response: { 200: generationSchema, ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    async (request) => app.generations.cancel(currentUser(request), request.params.id),
  );

  // Deleting one still running cancels it first; its file goes at once.
  routes.delete(
    '/generations/:id',
    {
      schema: {
        summary: 'Delete a generation',
        description: 'Cancels it first if it is still running; its files go at once.',
        tags,
        params: generationIdParamsSchema,
        response: { 204: z.null(), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await app.generations.remove(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
