import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEV_WEBHOOK_SECRET_KEY,
  GenerationLifecycle,
  WebhookEndpoints,
  newGenerationId,
  openDatabase,
  type RecordDatabase,
} from '@mediagen/core';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { TEST_REDIS_URL, WebhookReceiver, deleteKeys, testPrefix } from '@mediagen/testing';
import { startWebhookDelivery, type WebhookDelivery } from '../src';

/**
 * The dispatcher does not wait for its timer once a generation ends: the lifecycle's announcement of the
 * ending wakes it. The timer here is a minute, so only the wake-up can deliver within seconds.
 */
const prefix = testPrefix('webhook-alarm');
let database: TestDatabase;
let records: RecordDatabase;
let redis: Redis;
let delivery: WebhookDelivery;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  database = await createTestDatabase('webhook_alarm');
  records = openDatabase(database.url);
  redis = new Redis(TEST_REDIS_URL);
  delivery = await startWebhookDelivery({
    settings: {
      secretKey: DEV_WEBHOOK_SECRET_KEY,
      concurrency: 2,
      perEndpointConcurrency: 1,
      timeoutMs: 1000,
      retryDelaysMs: [300],
      dispatchIntervalMs: 60_000,
      allowLoopback: true,
      disable: { exhaustedInRow: 5, failingForMs: 24 * 60 * 60_000 },
      artifactLinks: { secret: 'a'.repeat(32), ttlSeconds: 3600, publicUrl: 'https://media.example' },
    },
    db: records.db,
    databaseUrl: database.url,
    redis: TEST_REDIS_URL,
    prefix,
  });
  await receiver.listen();
});

afterAll(async () => {
  await delivery.close();
  await receiver.close();
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await records.close();
  await database.drop();
});

it('delivers an ending within seconds though the dispatcher’s timer is a minute away', async () => {
  const lifecycle = new GenerationLifecycle(records.db, { plans: DEFAULT_PLAN_RULES });
  const uid = `user-${randomUUID()}`;
  await lifecycle.balance(uid);
  await lifecycle.setPlan(uid, 'enterprise', 'webhook alarm test');
  const endpoints = new WebhookEndpoints(records.db, DEFAULT_PLAN_RULES, DEV_WEBHOOK_SECRET_KEY);
  const created = await endpoints.create(uid, {
    url: receiver.url,
    events: ['generation.completed'],
    description: 'alarm',
  });
  if (!created.ok) throw new Error(created.reason);
  receiver.secret = created.value.secret;

  for (const round of [1, 2]) {
    const id = newGenerationId('image');
    const outcome = await lifecycle.submit({ id, uid, kind: 'image', request: {}, prompt: 'a pier', maxInFlight: 10 });
    expect(outcome.status).toBe('accepted');
    await lifecycle.start(id);
    await lifecycle.complete(id, { key: `${id}.png`, mimeType: 'image/png', bytes: 10 });
    await expect.poll(() => receiver.accepted().length, { timeout: 5000 }).toBe(round);
    expect(receiver.accepted().at(-1)!.payload).toMatchObject({ type: 'generation.completed', data: { id } });
  }
});
