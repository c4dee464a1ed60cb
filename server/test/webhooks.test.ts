import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_WEBHOOK_SECRET_KEY } from '@mediagen/core';
import { MAX_WEBHOOK_ENDPOINTS } from '@mediagen/shared';
import { TEST_REDIS_URL, WebhookReceiver } from '@mediagen/testing';
import { startWebhookDelivery, type WebhookDelivery } from '@mediagen/worker';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient } from './support/requests';
import { createTestUser, type TestUser } from './support/users';

/** /api/webhooks: who may register, bad input, the secret shown once, a test event, deliveries, delete. */
let context: TestContext;
let server: TestApp;
let delivery: WebhookDelivery;
const receiver = new WebhookReceiver();

vi.setConfig({ expect: { poll: { timeout: 8000 } } });

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  await receiver.listen();
  delivery = await startWebhookDelivery({
    settings: {
      secretKey: DEV_WEBHOOK_SECRET_KEY,
      concurrency: 2,
      perEndpointConcurrency: 1,
      timeoutMs: 2000,
      retryDelaysMs: [200],
      dispatchIntervalMs: 50,
      allowLoopback: true,
      disable: { exhaustedInRow: 5, failingForMs: 24 * 60 * 60_000 },
      artifactLinks: { secret: 'a'.repeat(32), ttlSeconds: 3600, publicUrl: null },
    },
    db: server.app.database.db,
    redis: TEST_REDIS_URL,
    prefix: context.prefix,
  });
});
afterAll(async () => {
  await delivery.close();
  await receiver.close();
  await context.cleanup();
});

function webhooksApi(user: TestUser) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.origin}/api/webhooks${path}`, {
      method,
      headers: { ...bearer(user), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  return {
    create: (body: unknown) => call('POST', '/endpoints', body),
    list: () => call('GET', '/endpoints'),
    remove: (id: string) => call('DELETE', `/endpoints/${id}`),
    test: (id: string) => call('POST', `/endpoints/${id}/test`),
    enable: (id: string) => call('POST', `/endpoints/${id}/enable`),
    deliveries: (id: string) => call('GET', `/endpoints/${id}/deliveries`),
  };
}

async function enterpriseUser(): Promise<TestUser> {
  const user = await createTestUser();
  expect((await apiClient(server.origin, user).me()).status).toBe(200);
  await server.app.plans.set(user.uid, 'enterprise', 'webhook test');
  return user;
}

const endpoint = (url = receiver.url) => ({ url, events: ['generation.completed'], description: 'CI' });

describe('webhook endpoints', () => {
  it('are part of Enterprise: another plan is refused and told so', async () => {
    const api = webhooksApi(await createTestUser());
    const refused = await api.create(endpoint());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'PLAN_LIMIT', message: 'Webhooks are part of the Enterprise plan.' });
    expect((await api.list()).body).toEqual({ endpoints: [], maxEndpoints: MAX_WEBHOOK_ENDPOINTS, apiAccess: false });
  });

  it('refuses bad input with 400 in the one error shape and registers nothing', async () => {
    const api = webhooksApi(await enterpriseUser());
    const bad = [
      { ...endpoint(), url: 'ftp://example.com/hooks' },
      { ...endpoint(), url: 'not a url' },
      { ...endpoint(), events: [] },
      { ...endpoint(), events: ['generation.started'] },
      { ...endpoint(), events: ['generation.completed', 'generation.completed'] },
      { ...endpoint(), secret: 'whsec_mine' },
      { ...endpoint(), description: 'x'.repeat(201) },
    ];
    for (const body of bad) {
      const answer = await api.create(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_REQUEST');
    }
    expect((await api.list()).body.endpoints).toEqual([]);
    expect((await api.remove('ep_nope')).status).toBe(400);
    expect((await api.deliveries(`ep_${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('shows the secret once, sends a signed test event, lists its delivery, and deletes', async () => {
    const user = await enterpriseUser();
    const api = webhooksApi(user);
    const created = await api.create(endpoint());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ['generation.completed'], status: 'active' });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await api.list();
    expect(listed.body).toMatchObject({ apiAccess: true, endpoints: [{ id: created.body.id }] });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    receiver.secret = created.body.secret;
    const sent = await api.test(created.body.id);
    expect(sent.status).toBe(202);
    await expect.poll(() => receiver.accepted().map((webhook) => webhook.id)).toEqual([sent.body.id]);
    expect(receiver.accepted()[0]!.payload).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: created.body.id },
    });
    await expect.poll(async () => (await api.deliveries(created.body.id)).body.deliveries[0]?.state).toBe('delivered');
    expect((await api.deliveries(created.body.id)).body.deliveries[0]).toMatchObject({
      id: sent.body.id,
      type: 'webhook.test',
      attempts: [{ ok: true, responseCode: 200, error: null }],
    });

    // Someone else's endpoint reads as missing.
    expect((await webhooksApi(await enterpriseUser()).deliveries(created.body.id)).status).toBe(404);
    expect((await api.remove(created.body.id)).status).toBe(204);
    expect((await api.remove(created.body.id)).status).toBe(404);
    expect((await api.list()).body.endpoints).toEqual([]);
  });

  it(`caps an account at ${MAX_WEBHOOK_ENDPOINTS} endpoints`, async () => {
    const api = webhooksApi(await enterpriseUser());
    for (let index = 0; index < MAX_WEBHOOK_ENDPOINTS; index += 1) {
      expect((await api.create(endpoint(`https://hooks.example/${index}`))).status).toBe(201);
    }
    const over = await api.create(endpoint('https://hooks.example/over'));
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
    expect((await api.list()).body.endpoints).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });
});
