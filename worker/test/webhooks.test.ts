import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEV_WEBHOOK_SECRET_KEY,
  GenerationLifecycle,
  WebhookEndpoints,
  newGenerationId,
  openDatabase,
  type RecordDatabase,
} from '@mediagen/core';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { DEFAULT_PLAN_RULES, type WebhookEventType } from '@mediagen/shared';
import { TEST_REDIS_URL, WebhookReceiver, deleteKeys, testPrefix } from '@mediagen/testing';
import { startWebhookDelivery, type WebhookDelivery } from '../src';
import { WebhookSender } from '../src/webhooks/webhook-sender';

/**
 * Webhooks end to end below the API: generations ending in the record, the worker's dispatcher and
 * delivery queue on real PostgreSQL and Redis, and receivers that verify signatures as a consumer would.
 */
const prefix = testPrefix('webhooks');
let database: TestDatabase;
let records: RecordDatabase;
let redis: Redis;
let lifecycle: GenerationLifecycle;
let endpoints: WebhookEndpoints;
let delivery: WebhookDelivery;
const receivers: WebhookReceiver[] = [];
const TIMEOUT_MS = 1000;
// A delivery runs through the dispatcher, a queue and retries: seconds, not the default second.
vi.setConfig({ expect: { poll: { timeout: 8000 } } });

beforeAll(async () => {
  database = await createTestDatabase('webhooks');
  records = openDatabase(database.url);
  redis = new Redis(TEST_REDIS_URL);
  lifecycle = new GenerationLifecycle(records.db, { plans: DEFAULT_PLAN_RULES });
  endpoints = new WebhookEndpoints(records.db, DEFAULT_PLAN_RULES, DEV_WEBHOOK_SECRET_KEY);
  delivery = await startWebhookDelivery({
    settings: {
      secretKey: DEV_WEBHOOK_SECRET_KEY,
      concurrency: 4,
      perEndpointConcurrency: 1,
      timeoutMs: TIMEOUT_MS,
      // Six attempts 300 ms apart: long enough to play an outage, short enough to run out in a test.
      retryDelaysMs: [300, 300, 300, 300, 300],
      dispatchIntervalMs: 50,
      allowLoopback: true,
      disable: { exhaustedInRow: 2, failingForMs: 24 * 60 * 60_000 },
      artifactLinks: { secret: 'a'.repeat(32), ttlSeconds: 3600, publicUrl: 'https://media.example' },
    },
    db: records.db,
    redis: TEST_REDIS_URL,
    prefix,
  });
});

afterAll(async () => {
  await delivery.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await records.close();
  await database.drop();
});

async function enterpriseUser(): Promise<string> {
  const uid = `user-${randomUUID()}`;
  await lifecycle.balance(uid);
  await lifecycle.setPlan(uid, 'enterprise', 'webhook test');
  return uid;
}

async function receiverFor(uid: string, events: WebhookEventType[] = ['generation.completed', 'generation.failed']) {
  const receiver = new WebhookReceiver();
  receivers.push(receiver);
  await receiver.listen();
  const created = await endpoints.create(uid, { url: receiver.url, events, description: 'test' });
  if (!created.ok) throw new Error(created.reason);
  receiver.secret = created.value.secret;
  return { receiver, endpointId: created.value.id };
}

async function submitted(uid: string): Promise<string> {
  const id = newGenerationId('image');
  const outcome = await lifecycle.submit({
    id,
    uid,
    kind: 'image',
    request: {},
    prompt: 'a lighthouse',
    maxInFlight: 100,
  });
  expect(outcome.status).toBe('accepted');
  await lifecycle.start(id);
  return id;
}

async function completed(uid: string): Promise<string> {
  const id = await submitted(uid);
  expect((await lifecycle.complete(id, { key: `${id}.png`, mimeType: 'image/png', bytes: 10 })).ok).toBe(true);
  return id;
}

async function deliveriesOf(uid: string, endpointId: string) {
  return (await endpoints.deliveries(uid, endpointId)) ?? [];
}

describe('webhook deliveries', () => {
  it('sees each event once per delivery id across a receiver outage, with every attempt recorded', async () => {
    const uid = await enterpriseUser();
    const { receiver, endpointId } = await receiverFor(uid);
    await receiver.close();
    const id = await completed(uid);

    await expect
      .poll(async () => (await deliveriesOf(uid, endpointId))[0]?.attempts.length ?? 0)
      .toBeGreaterThanOrEqual(2);
    await receiver.listen();
    await expect
      .poll(async () => (await deliveriesOf(uid, endpointId))[0]?.state, { timeout: 10_000 })
      .toBe('delivered');

    const [listed] = await deliveriesOf(uid, endpointId);
    expect(listed!.attempts.at(-1)).toMatchObject({ ok: true, responseCode: 200, error: null });
    expect(listed!.attempts.slice(0, -1).every((attempt) => !attempt.ok && attempt.responseCode === null)).toBe(true);
    const accepted = receiver.accepted();
    expect(accepted.map((webhook) => webhook.id)).toEqual([listed!.id]);
    expect(accepted[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(accepted[0]!.payload).toMatchObject({
      type: 'generation.completed',
      data: { id, status: 'completed', version: 3, prompt: 'a lighthouse' },
    });
    const result = (accepted[0]!.payload!.data as { result: { url: string } }).result;
    expect(result.url).toMatch(new RegExp(`^https://media\\.example/artifacts/${id}\\.png\\?exp=\\d+&sig=`));
  });

  it('sends an endpoint only the events it asked for, each written with the ending itself', async () => {
    const uid = await enterpriseUser();
    const { receiver, endpointId } = await receiverFor(uid, ['generation.completed']);
    const failed = await submitted(uid);
    await lifecycle.fail(failed, { code: 'IMAGE_FAILED', message: 'Failed to generate image' });
    const canceled = await submitted(uid);
    await lifecycle.cancel(canceled, { by: 'owner', uid });
    const done = await completed(uid);
    // In the record as soon as the ending committed, before any dispatcher ran.
    expect((await deliveriesOf(uid, endpointId)).map((listed) => listed.generationId)).toEqual([done]);

    await expect.poll(() => receiver.accepted().length).toBe(1);
    expect(receiver.accepted()[0]!.payload!.data).toMatchObject({ id: done });
  });

  it('disables an endpoint that answers 410 Gone at once, after one attempt', async () => {
    const uid = await enterpriseUser();
    const { receiver, endpointId } = await receiverFor(uid);
    receiver.answer = { status: 410 };
    await completed(uid);
    await expect.poll(async () => (await endpoints.list(uid))[0]?.status).toBe('disabled');
    expect((await endpoints.list(uid))[0]!.disabledReason).toBe('The endpoint answered 410 Gone.');
    const [listed] = await deliveriesOf(uid, endpointId);
    expect(listed).toMatchObject({ state: 'failed', attempts: [{ ok: false, responseCode: 410 }] });

    // Nothing more is written for it until its owner re-enables it.
    await completed(uid);
    expect(await deliveriesOf(uid, endpointId)).toHaveLength(1);
    expect((await endpoints.reenable(uid, endpointId)).ok).toBe(true);
    receiver.answer = { status: 200 };
    await completed(uid);
    await expect.poll(() => receiver.accepted().length).toBe(1);
  });

  it('counts a redirect as a failure, never follows it, and disables an endpoint whose deliveries keep failing', async () => {
    const uid = await enterpriseUser();
    const { receiver, endpointId } = await receiverFor(uid);
    const target = new WebhookReceiver();
    receivers.push(target);
    await target.listen();
    receiver.answer = { status: 307, location: target.url };
    await completed(uid);
    await completed(uid);

    await expect.poll(async () => (await endpoints.list(uid))[0]?.status, { timeout: 15_000 }).toBe('disabled');
    expect((await endpoints.list(uid))[0]!.disabledReason).toBe('2 deliveries in a row failed every attempt.');
    const listed = await deliveriesOf(uid, endpointId);
    expect(listed.map((entry) => entry.state)).toEqual(['failed', 'failed']);
    for (const entry of listed) {
      expect(entry.attempts).toHaveLength(6);
      expect(entry.attempts[0]).toMatchObject({ ok: false, responseCode: 307, error: 'redirect not followed' });
    }
    expect(target.received).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer in time, without holding up another endpoint', async () => {
    const slowUser = await enterpriseUser();
    const slow = await receiverFor(slowUser);
    slow.receiver.answer = { slowMs: TIMEOUT_MS * 3 };
    for (let index = 0; index < 4; index += 1) await completed(slowUser);
    await expect.poll(() => slow.receiver.received.length).toBeGreaterThan(0);

    const otherUser = await enterpriseUser();
    const other = await receiverFor(otherUser);
    await completed(otherUser);
    await expect.poll(() => other.receiver.accepted().length).toBe(1);
    // The slow endpoint's deliveries are still waiting their turn while the other's went through.
    const waiting = (await deliveriesOf(slowUser, slow.endpointId)).filter((entry) => entry.state === 'pending');
    expect(waiting.length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await deliveriesOf(slowUser, slow.endpointId)).flatMap((entry) => entry.attempts)[0])
      .toMatchObject({ ok: false, responseCode: null, error: `no answer within ${TIMEOUT_MS} ms` });
  });
});

describe('the address guard', () => {
  it('refuses loopback addresses in production mode, by address and by name, and sends nothing', async () => {
    const receiver = new WebhookReceiver();
    receivers.push(receiver);
    await receiver.listen();
    const sender = new WebhookSender({ timeoutMs: TIMEOUT_MS, allowLoopback: false });
    const payload = {
      type: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { endpointId: 'ep', message: '' },
    };
    const send = (url: string) =>
      sender.send({ eventId: 'msg_1', endpointId: 'ep', url, secret: 'whsec_' + 'A'.repeat(32), payload }, new Date());
    expect(await send(receiver.url)).toMatchObject({
      ok: false,
      responseCode: null,
      error: '127.0.0.1 is not a public address',
    });
    const byName = await send(receiver.url.replace('127.0.0.1', 'localhost'));
    expect(byName).toMatchObject({
      ok: false,
      responseCode: null,
      error: 'localhost resolves to a non-public address',
    });
    expect(await send('http://10.0.0.1/hooks')).toMatchObject({ ok: false, error: '10.0.0.1 is not a public address' });
    expect(receiver.received).toHaveLength(0);
    await sender.close();
  });
});
