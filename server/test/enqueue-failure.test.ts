import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_ALLOWANCE } from '@mediagen/shared';
import { GenerationService } from '../src/generations/generation-service';
import { ServiceError } from '../src/http/errors';
import { BullGenerationQueues, type GenerationQueues } from '../src/queue/generation-queues';
import { REDIS_URL, createTestContext, type TestContext } from './support/app';

/**
 * An enqueue that fails mid-way, with the real queues and ledger: a job that never reached the queue
 * gives its token back; one that reached it before the answer was lost is accepted and charged once.
 */
let context: TestContext;
let queues: BullGenerationQueues;
const silent = { warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  context = await createTestContext();
  queues = await BullGenerationQueues.open({
    redisUrl: REDIS_URL,
    prefix: context.prefix,
    retry: { attempts: 1, backoffMs: 50 },
    log: silent,
  });
});
afterAll(async () => {
  await queues?.close();
  await context.cleanup();
});

/** The real queues, except that `add` fails after (or instead of) adding. */
function serviceWhoseAddFails(addFirst: boolean): GenerationService {
  const failing: GenerationQueues = Object.create(queues) as GenerationQueues;
  failing.add = async (data, id) => {
    if (addFirst) await queues.add(data, id);
    throw new Error('Connection is closed.');
  };
  return new GenerationService({
    redis: queues.producer,
    queues: failing,
    prefix: context.prefix,
    artifactUrl: (key) => `/artifacts/${key}`,
    log: silent,
  });
}

it('answers 503 and gives the token back when the job never reached the queue', async () => {
  const service = serviceWhoseAddFails(false);
  const user = { uid: 'enqueue-lost', email: null };
  const refused = await service.submit(user, { kind: 'video', prompt: 'a harbour' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ServiceError);
  expect((refused as ServiceError).statusCode).toBe(503);
  expect((await service.me(user)).tokens.video).toBe(TOKEN_ALLOWANCE.video);
});

it('accepts a job that reached the queue before the answer was lost, and charges it once', async () => {
  const service = serviceWhoseAddFails(true);
  const user = { uid: 'enqueue-answer-lost', email: null };
  const { generation } = await service.submit(user, { kind: 'video', prompt: 'a harbour' });
  expect(generation.status).toBe('queued');
  expect(await queues.getJob('video', generation.id)).toBeDefined();
  expect((await service.me(user)).tokens.video).toBe(TOKEN_ALLOWANCE.video - 1);
});
