import type { FastifyPluginAsync } from 'fastify';
import { describeRequestError } from '../requestError';
import { StripeRefusal } from './stripeErrors';
import type { StripeControl } from './stripeStandIn';
import { RELEASE_ORDERS, type ReleaseOrder } from './webhookDispatcher';

type IdParams = { Params: { id: string } };

class ControlBodyError extends Error {
  override name = 'ControlBodyError';
}

/** The Stripe stand-in's control API under /__sim/stripe, beside the simulator's own (controlRoutes.ts). */
export function stripeControlRoutes(control: StripeControl): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof ControlBodyError) return reply.code(400).send({ error: error.message });
      if (error instanceof StripeRefusal) {
        return reply.code(error.answer.status === 404 ? 404 : 409).send({ error: error.message });
      }
      const { statusCode, message } = describeRequestError(error);
      return reply.code(statusCode).send({ error: message });
    });

    app.get('/__sim/stripe/webhook', async () => ({
      endpoint: control.webhookEndpoint ?? null,
      mode: control.deliveryMode,
    }));

    app.put('/__sim/stripe/webhook', async (request) => {
      const { url, secret } = objectBody(request.body);
      if (typeof url !== 'string' || !URL.canParse(url)) throw new ControlBodyError('url must be an absolute URL');
      if (secret !== undefined && typeof secret !== 'string') throw new ControlBodyError('secret must be a string');
      control.setWebhookEndpoint({ url, ...(secret === undefined ? {} : { secret }) });
      return { endpoint: control.webhookEndpoint ?? null, mode: control.deliveryMode };
    });

    app.delete('/__sim/stripe/webhook', async (_request, reply) => {
      control.setWebhookEndpoint(undefined);
      return reply.code(204).send();
    });

    app.put('/__sim/stripe/webhook/mode', async (request) => {
      const { duplicates, hold } = objectBody(request.body);
      for (const [name, value] of Object.entries({ duplicates, hold })) {
        if (value !== undefined && typeof value !== 'boolean') throw new ControlBodyError(`${name} must be a boolean`);
      }
      control.setDeliveryMode({
        ...(duplicates === undefined ? {} : { duplicates: duplicates as boolean }),
        ...(hold === undefined ? {} : { hold: hold as boolean }),
      });
      return control.deliveryMode;
    });

    app.post('/__sim/stripe/webhook/release', async (request) => {
      const { order = 'sent' } = objectBody(request.body ?? {});
      if (!(RELEASE_ORDERS as readonly unknown[]).includes(order)) {
        throw new ControlBodyError(`order must be one of ${RELEASE_ORDERS.join(', ')}`);
      }
      return { released: control.releaseHeldEvents(order as ReleaseOrder) };
    });

    app.get<{ Querystring: { type?: string } }>('/__sim/stripe/events', async (request) =>
      control.events().filter((record) => request.query.type === undefined || record.event.type === request.query.type),
    );

    app.post<IdParams>('/__sim/stripe/events/:id/resend', async (request, reply) => {
      if (!control.resendEvent(request.params.id))
        return reply.code(404).send({ error: `no event ${request.params.id}` });
      return reply.code(204).send();
    });

    app.post<IdParams>('/__sim/stripe/checkout/sessions/:id/complete', async (request) =>
      control.completeCheckout(request.params.id),
    );

    app.post<IdParams>('/__sim/stripe/subscriptions/:id/advance', async (request) => {
      const { payment = 'succeeds' } = objectBody(request.body ?? {});
      if (payment !== 'succeeds' && payment !== 'fails')
        throw new ControlBodyError('payment must be succeeds or fails');
      return control.advanceSubscription(request.params.id, payment);
    });
  };
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ControlBodyError('the body must be a JSON object');
  return body as Record<string, unknown>;
}
