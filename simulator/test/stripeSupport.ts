import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach } from 'vitest';
import type { Simulator } from '../src/index';

/** The official SDK pointed at a simulator, as the server's development settings do. */
export function stripeClient(simulator: Simulator, key = 'sk_test_simulator', timeout?: number): Stripe {
  const { hostname, port } = new URL(simulator.url);
  return new Stripe(key, {
    host: hostname,
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
    ...(timeout === undefined ? {} : { timeout }),
  });
}

export interface ReceivedDelivery {
  body: string;
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** The events of the deliveries the receiver accepted, as constructEvent verified them. */
  accepted: Stripe.Event[];
  /** Answer the next `count` deliveries with this status. */
  failNext(count: number, status?: number): void;
}

const receivers: { close(): void }[] = [];
afterEach(() => {
  for (const receiver of receivers.splice(0)) receiver.close();
});

/** A webhook endpoint that checks each delivery's signature with the SDK, as the server will. */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const accepted: Stripe.Event[] = [];
  const verifier = new Stripe('sk_test_receiver');
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ body, headers: request.headers, receivedAt: Date.now() });
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 };
        response.writeHead(failures.status).end();
        return;
      }
      try {
        accepted.push(verifier.webhooks.constructEvent(body, request.headers['stripe-signature'] ?? '', secret));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch (error) {
        response.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push({ close: () => server.close() });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/billing/webhook`,
    deliveries,
    accepted,
    failNext: (count, status = 500) => {
      failures = { count, status };
    },
  };
}

export const WEBHOOK_SECRET = 'whsec_test_receiver';

/** A customer and an open Checkout Session for one of the default prices. */
export async function openCheckout(
  stripe: Stripe,
  price = 'price_pro_monthly',
  extra: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  const customer = await stripe.customers.create({ email: 'ada@example.com', metadata: { uid: 'user-1' } });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price, quantity: 1 }],
    success_url: 'http://app.test/payment?checkout=success&session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/payment?checkout=canceled',
    client_reference_id: 'user-1',
    metadata: { uid: 'user-1' },
    ...extra,
  });
  return { customer, session };
}

/** POSTs a hosted page's form, as a browser's button does, without following the redirect. */
export function submitForm(url: string, fields: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}
