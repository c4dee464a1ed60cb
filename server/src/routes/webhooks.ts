import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { EndpointRefusal } from '@mediagen/core';
import {
  MAX_WEBHOOK_ENDPOINTS,
  errorBodySchema,
  webhookDeliveryListSchema,
  webhookEndpointBodySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointParamsSchema,
  webhookEndpointSchema,
  webhookTestSentSchema,
} from '@mediagen/shared';
import { ServiceError } from '../http/errors';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';
import { currentUser } from '../plugins/auth';

const tags = ['Webhooks'];

const NOT_FOUND = 'Webhook endpoint not found.';

function refusal(reason: EndpointRefusal): ServiceError {
  switch (reason) {
    case 'no-api-access':
      return new ServiceError(403, 'PLAN_LIMIT', 'Webhooks are part of the Enterprise plan.');
    case 'too-many':
      return new ServiceError(
        400,
        'INVALID_REQUEST',
        `Invalid request: an account may register at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`,
      );
    case 'not-found':
      return new ServiceError(404, 'NOT_FOUND', NOT_FOUND);
    case 'disabled':
      return new ServiceError(
        409,
        'INVALID_REQUEST',
        'Invalid request: this endpoint is disabled; re-enable it first.',
      );
  }
}

const errors = { ...commonErrorResponses, 403: errorBodySchema };

/**
 * /api/webhooks (issue 39): a signed-in user's webhook endpoints (core/src/webhooks/), which the workers
 * deliver to. Registering, re-enabling and testing need a plan with API access; listing and deleting do not.
 */
export const webhookRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);
  const params = webhookEndpointParamsSchema;

  routes.post(
    '/webhooks/endpoints',
    {
      schema: {
        summary: 'Register a webhook endpoint',
        tags,
        body: webhookEndpointBodySchema,
        response: { 201: webhookEndpointCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await app.webhooks.create(currentUser(request).uid, request.body);
      if (!created.ok) throw refusal(created.reason);
      return reply.status(201).send(created.value);
    },
  );

  routes.get(
    '/webhooks/endpoints',
    {
      schema: { summary: 'List your webhook endpoints', tags, response: { 200: webhookEndpointListSchema, ...errors } },
    },
    async (request) => {
      const { uid } = currentUser(request);
      const [endpoints, apiAccess] = await Promise.all([app.webhooks.list(uid), app.webhooks.hasApiAccess(uid)]);
      return { endpoints, maxEndpoints: MAX_WEBHOOK_ENDPOINTS, apiAccess };
    },
  );

  routes.delete(
    '/webhooks/endpoints/:id',
    { schema: { summary: 'Delete a webhook endpoint', tags, params, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      if (!(await app.webhooks.remove(currentUser(request).uid, request.params.id))) throw refusal('not-found');
      return reply.status(204).send(null);
    },
  );

  routes.post(
    '/webhooks/endpoints/:id/enable',
    {
      schema: {
        summary: 'Re-enable a disabled webhook endpoint',
        tags,
        params,
        response: { 200: webhookEndpointSchema, ...errors },
      },
    },
    async (request) => {
      const enabled = await app.webhooks.reenable(currentUser(request).uid, request.params.id);
      if (!enabled.ok) throw refusal(enabled.reason);
      return enabled.value;
    },
  );

  routes.post(
    '/webhooks/endpoints/:id/test',
    {
      schema: {
        summary: 'Send a test event to a webhook endpoint',
        tags,
        params,
        response: { 202: webhookTestSentSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const sent = await app.webhooks.sendTest(currentUser(request).uid, request.params.id);
      if (!sent.ok) throw refusal(sent.reason);
      return reply.status(202).send(sent.value);
    },
  );

  routes.get(
    '/webhooks/endpoints/:id/deliveries',
    {
      schema: {
        summary: "List an endpoint's recent deliveries and their attempts",
        tags,
        params,
        response: { 200: webhookDeliveryListSchema, ...errors },
      },
    },
    async (request) => {
      const deliveries = await app.webhooks.deliveries(currentUser(request).uid, request.params.id);
      if (deliveries === null) throw refusal('not-found');
      return { deliveries };
    },
  );
};
