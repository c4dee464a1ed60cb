import { describe, expect, it } from 'vitest';
import { shapeMismatches, stripe as documented } from '../src/contract/documented-examples';
import { startSimulator } from './helpers';

const KEY = { authorization: 'Bearer sk_test_contract' };
const FORM = { ...KEY, 'content-type': 'application/x-www-form-urlencoded' };

/** The raw JSON the stand-in answers, as Stripe's clients in any language would read it. */
async function answerOf(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...KEY, ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Stripe's published example objects (src/contract/stripe-examples.ts) against the stand-in's raw answers:
 * every documented field present, with the documented type (a null on either side is a state, not a type).
 */
describe('Stripe, as documented', () => {
  it(`answers customers, prices, Checkout Sessions, subscriptions, invoices, portal sessions and events in the published shapes (${documented.customer.source})`, async () => {
    const simulator = await startSimulator();
    const post = (path: string, form: string) =>
      answerOf(`${simulator.url}${path}`, { method: 'POST', headers: FORM, body: form });
    const customer = (await post('/v1/customers', 'email=ada%40example.com&metadata[uid]=user-1')).body;
    const session = (
      await post(
        '/v1/checkout/sessions',
        `mode=subscription&customer=${String(customer.id)}&line_items[0][price]=price_pro_monthly&line_items[0][quantity]=1&success_url=http%3A%2F%2Fapp.test%2F`,
      )
    ).body;
    const subscriptionId = simulator.stripe.completeCheckout(String(session.id)).subscription as string;
    const answers = {
      customer: (await answerOf(`${simulator.url}/v1/customers/${String(customer.id)}`)).body,
      price: (await answerOf(`${simulator.url}/v1/prices/price_pro_monthly`)).body,
      checkoutSession: (await answerOf(`${simulator.url}/v1/checkout/sessions/${String(session.id)}`)).body,
      subscription: (await answerOf(`${simulator.url}/v1/subscriptions/${subscriptionId}`)).body,
      invoice: (
        (await answerOf(`${simulator.url}/v1/invoices?customer=${String(customer.id)}`)).body.data as unknown[]
      )[0],
      portalSession: (await post('/v1/billing_portal/sessions', `customer=${String(customer.id)}`)).body,
      event: JSON.parse(JSON.stringify(simulator.stripe.events().at(-1)!.event)) as unknown,
    };
    for (const [name, answer] of Object.entries(answers)) {
      const example = documented[name as keyof typeof answers].object;
      expect(shapeMismatches(example, answer, '$', { nullable: true }), name).toEqual([]);
    }
  });

  it(`answers an unknown id with the documented error body (${documented.resourceMissing.source})`, async () => {
    const simulator = await startSimulator();
    const { status, body } = await answerOf(`${simulator.url}/v1/customers/cus_nobody`);
    expect(status).toBe(documented.resourceMissing.status);
    expect(body).toEqual(documented.resourceMissing.body);
  });
});
