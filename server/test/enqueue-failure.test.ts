import { afterAll, beforeAll, expect, it } from 'vitest';
import { GenerationLifecycle, GenerationReads, openDatabase, type RecordDatabase } from '@mediagen/core';
import { DEFAULT_PLAN_RULES, DEFAULT_SPEECH_MODEL, TOKEN_ALLOWANCE } from '@mediagen/shared';
import { GenerationHistory } from '../src/generations/generation-history';
import { GenerationService } from '../src/generations/generation-service';
import { GenerationViews } from '../src/generations/generation-views';
import { QueuePositions } from '../src/generations/queue-positions';
import { ServiceError } from '../src/http/errors';
import { createTestContext, type TestContext } from './support/app';
import { signedInAs } from './support/users';

/**
 * What a submission does when Redis refuses the job after the record accepted the generation: the
 * record is the authority, so the outcome is decided there and nothing is charged for work that never runs.
 */
let context: TestContext;
let database: RecordDatabase;
let lifecycle: GenerationLifecycle;

beforeAll(async () => {
  context = await createTestContext();
  database = openDatabase(context.database.url, { maxConnections: 2 });
  lifecycle = new GenerationLifecycle(database.db);
});
afterAll(async () => {
  await database.close();
  await context.cleanup();
});

const silent = { warn: () => undefined, error: () => undefined };

/** The service on the real record, with a queue whose add the test decides. */
function service(add: (generation: { id: string }) => Promise<void>) {
  const reads = new GenerationReads(database.db);
  const positions = new QueuePositions(reads, {
    isHeldBack: async () => false,
    workerCount: async () => null,
    meanRunMs: async () => null,
  });
  return new GenerationService({
    lifecycle,
    history: new GenerationHistory(reads),
    views: new GenerationViews(context.redis, context.prefix, positions, (key) => `/artifacts/${key}`),
    plans: DEFAULT_PLAN_RULES,
    speechModel: DEFAULT_SPEECH_MODEL,
    jobs: { submitted: add, canceled: async () => ({ jobRemoved: false }), gone: async () => undefined },
    emailHash: () => null,
    log: silent,
    maxInFlightPerUser: 3,
  });
}

function serviceWhoseAddFails(add: (generation: { id: string }) => Promise<void>) {
  return service(async (generation) => {
    await add(generation);
    throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
  });
}

it('answers 503 and gives the token back when the job cannot be enqueued', async () => {
  const service = serviceWhoseAddFails(async () => undefined);
  const user = signedInAs('enqueue-lost');
  const refused = await service.submit(user, { kind: 'video', prompt: 'a harbour' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ServiceError);
  expect((refused as ServiceError).statusCode).toBe(503);
  expect((await service.me(user)).tokens.video).toBe(TOKEN_ALLOWANCE.video);
  // Its history says what happened, and a job that reached Redis after all is let go by the worker.
  const [failed] = (await service.list(user, { limit: 5 })).items;
  expect(failed).toMatchObject({ status: 'failed', token: 'refunded', error: { code: 'NOT_READY' } });
  expect((await lifecycle.start(failed!.id)).ok).toBe(false);
});

it('goes on when a worker already took the job before the error reached the API, charged once', async () => {
  // The add reached Redis and a worker started the generation before the answer was lost.
  const service = serviceWhoseAddFails(async ({ id }) => {
    expect((await lifecycle.start(id)).ok).toBe(true);
  });
  const user = signedInAs('enqueue-answer-lost');
  const { generation } = await service.submit(user, { kind: 'video', prompt: 'a harbour' });
  expect(generation.status).toBe('active');
  expect((await service.me(user)).tokens.video).toBe(TOKEN_ALLOWANCE.video - 1);
});
