import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Generation, PlanId } from '@mediagen/shared';
import type { TestApp } from './support/app';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { apiClient, submitCompleted, videoRequest } from './support/requests';
import { createTestUser, type TestUser } from './support/users';

/**
 * Video models per plan (issue 36), through the whole pipeline: what each plan's video reaches MiniMax
 * (the simulator) as, what it is priced at, and what a plan refuses before anything is charged.
 */
let pipeline: TestPipeline;
let server: TestApp;
let simulator: TestPipeline['simulator'];

beforeAll(async () => {
  pipeline = await startTestPipeline({ simulator: { latencyMs: 0, videoQueueingMs: 50, videoProcessingMs: 50 } });
  ({ server, simulator } = pipeline);
});
afterAll(() => pipeline.close(), 60_000);

beforeEach(() => simulator.clearFaults());

async function userOn(plan: PlanId): Promise<TestUser> {
  const user = await createTestUser();
  if (plan !== 'free') await server.app.plans.set(user.uid, plan, 'video models test');
  return user;
}

/** What the simulator was sent for the task of a generation. */
async function sentFor(generation: Generation) {
  const record = await server.app.database.db
    .selectFrom('generations')
    .select(['provider_task_id', 'cost_usd', 'request'])
    .where('id', '=', generation.id)
    .executeTakeFirstOrThrow();
  const task = simulator.videoTasks().find((sent) => sent.taskId === record.provider_task_id);
  return { task, costUsd: Number(record.cost_usd), request: record.request };
}

describe('video models per plan', () => {
  it('sends a Free video as the base model, T2V-01, with no size: the model renders 720P in 6 s', async () => {
    const user = await userOn('free');
    const done = await submitCompleted(server.origin, user, videoRequest('a paper boat on a river'));
    const { task, costUsd, request } = await sentFor(done);
    expect(task).toEqual({
      taskId: expect.any(String),
      model: 'T2V-01',
      prompt: 'a paper boat on a river',
      duration: undefined,
      resolution: undefined,
      promptOptimizer: true,
      fastPretreatment: undefined,
    });
    expect(request).toMatchObject({ model: 'T2V-01', resolution: '720P', duration: 6, quality: 'standard' });
    expect(costUsd).toBe(0.43);
  });

  it.each([
    [{}, { resolution: '768P', duration: 6 }, 0.28],
    [{ duration: 10 }, { resolution: '768P', duration: 10 }, 0.56],
    [{ quality: 'hd' }, { resolution: '1080P', duration: 6 }, 0.49],
    [{ resolution: '1080P' }, { resolution: '1080P', duration: 6 }, 0.49],
    [{ quality: 'draft' }, { resolution: '768P', duration: 6, fastPretreatment: true }, 0.28],
  ] as const)('sends a Pro video asking %o as MiniMax-Hailuo-2.3 with %o, priced %s', async (asked, sent, usd) => {
    const user = await userOn('pro');
    const done = await submitCompleted(server.origin, user, { ...videoRequest('a fox in the snow'), ...asked });
    const { task, costUsd } = await sentFor(done);
    expect(task).toMatchObject({ model: 'MiniMax-Hailuo-2.3', prompt: 'a fox in the snow', ...sent });
    expect(costUsd).toBe(usd);
  });

  it('sends an Enterprise video as Hailuo-2.3 too, and the base model when it is named', async () => {
    const user = await userOn('enterprise');
    const hailuo = await submitCompleted(server.origin, user, { ...videoRequest('a heron'), quality: 'hd' });
    expect((await sentFor(hailuo)).task).toMatchObject({
      model: 'MiniMax-Hailuo-2.3',
      resolution: '1080P',
      duration: 6,
    });
    const base = await submitCompleted(server.origin, user, { ...videoRequest('a crane'), model: 'T2V-01' });
    expect((await sentFor(base)).task).toMatchObject({ model: 'T2V-01', resolution: undefined, duration: undefined });
  });

  it('refuses Free a 1080P, HD, 10 s or Hailuo video with 403 PLAN_LIMIT, charging and sending nothing', async () => {
    const user = await userOn('free');
    const api = apiClient(server.origin, user);
    const before = simulator.stats().videoTasksCreated;
    for (const asked of [
      { resolution: '1080P' },
      { quality: 'hd' },
      { duration: 10 },
      { model: 'MiniMax-Hailuo-2.3' },
    ]) {
      const refused = await api.submit({ ...videoRequest(), ...asked });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'PLAN_LIMIT',
        message: 'The Free plan makes 6-second 720P videos with T2V-01. Upgrade your plan for more.',
      });
    }
    expect((await api.me()).body).toMatchObject({ plan: 'free', tokens: { video: 1 } });
    expect((await api.list()).body.items).toEqual([]);
    expect(simulator.stats().videoTasksCreated).toBe(before);
  });

  it('refuses with 400 on every plan what no model renders (1080P in 10 s), charging nothing', async () => {
    const user = await userOn('pro');
    const api = apiClient(server.origin, user);
    const refused = await api.submit({ ...videoRequest(), quality: 'hd', duration: 10 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'INVALID_REQUEST',
      message: 'MiniMax-Hailuo-2.3 renders 1080P video in clips of 6 seconds, so no video can be made of this request',
    });
    expect((await api.me()).body.tokens.video).toBe((await api.me()).body.allowance.video);
  });

  it('runs a video again with the model, resolution and length it was made with', async () => {
    const user = await userOn('pro');
    const api = apiClient(server.origin, user);
    const first = await submitCompleted(server.origin, user, { ...videoRequest('a tram'), model: 'T2V-01' });
    const again = await api.runAgain(first.id);
    expect(again.status).toBe(202);
    const record = await server.app.database.db
      .selectFrom('generations')
      .select('request')
      .where('id', '=', again.body.id)
      .executeTakeFirstOrThrow();
    expect(record.request).toMatchObject({ model: 'T2V-01', resolution: '720P', duration: 6 });
  });
});
