import { afterAll, beforeAll, expect, it } from 'vitest';
import { GenerationReads } from '@mediagen/core';
import type { GenerationKind } from '@mediagen/shared';
import { PriorityAging } from '../src/priority-aging';
import { WorkerHarness, imageRequest, speechRequest, videoRequest } from './support/harness';

/** Paid plans' jobs run first, but a free job that has waited long enough runs next: no starvation. */
const harness = new WorkerHarness();
const FREE = 3;
const PRO = 2;
const ENTERPRISE = 1;
const MINUTE = 60_000;

beforeAll(() => harness.start());
afterAll(() => harness.stop());

function aging(minutesLater: number, batch?: number): PriorityAging {
  return new PriorityAging({
    reads: new GenerationReads(harness.records.db),
    lifecycle: harness.lifecycle,
    jobs: harness.jobs,
    afterMs: 2 * MINUTE,
    topPriority: ENTERPRISE,
    clock: () => Date.now() + minutesLater * MINUTE,
    ...(batch === undefined ? {} : { batch }),
  });
}

const PLAN_OF_PRIORITY = { [FREE]: 'free', [PRO]: 'pro', [ENTERPRISE]: 'enterprise' } as const;

/** A job of a user on the plan whose priority it has, as the API submits it. */
async function submitAs(priority: typeof FREE | typeof PRO | typeof ENTERPRISE, kind: GenerationKind, label: string) {
  const uid = `user-${label.replace(/\W+/g, '-')}-${Date.now()}`;
  await harness.lifecycle.setPlan(uid, PLAN_OF_PRIORITY[priority], 'test');
  const request = { image: imageRequest, video: videoRequest, speech: speechRequest }[kind](label);
  return harness.submit(kind, request, { uid, priority });
}

/** The order the record puts these generations in, as places in line are counted from it. */
async function recordOrder(ids: readonly string[]): Promise<string[]> {
  const rows = await harness.records.db
    .selectFrom('generations')
    .select('id')
    .where('id', 'in', ids)
    .where('status', '=', 'queued')
    .orderBy('queue_priority')
    .orderBy('queue_order')
    .execute();
  return rows.map((row) => row.id);
}

it('moves jobs that waited past the limit to the top, oldest first and once, ahead of paid jobs submitted later', async () => {
  const order = async () => (await harness.queue('speech').getPrioritized()).map((job) => job.id);
  const free = await harness.submit('speech', speechRequest('free, waiting'), { priority: FREE });
  const enterprise = await harness.submit('speech', speechRequest('enterprise'), { priority: ENTERPRISE });
  const pro = await harness.submit('speech', speechRequest('pro'), { priority: PRO });
  expect(await order()).toEqual([enterprise.id, pro.id, free.id]);

  // Not waited long enough yet: nothing moves.
  expect(await aging(1).pass()).toEqual([]);

  // Every job waiting past the limit moves up, oldest first: the free one, then the Pro one.
  expect(await aging(5).pass()).toEqual([free.id, pro.id]);
  expect(await order()).toEqual([enterprise.id, free.id, pro.id]);
  // A paid job submitted now waits behind them.
  const later = await harness.submit('speech', speechRequest('pro, later'), { priority: PRO });
  expect(await order()).toEqual([enterprise.id, free.id, pro.id, later.id]);
  // Once: what moved up is not moved again (it would go to the back of the line).
  expect(await aging(1).pass()).toEqual([]);
  expect(await order()).toEqual([enterprise.id, free.id, pro.id, later.id]);
});

it("moves the record's line with the queue, so places read from the record are the queue's", async () => {
  const kind = 'image';
  const queueOrder = async (ids: readonly string[]) =>
    (await harness.queue(kind).getPrioritized()).map((job) => job.id!).filter((id) => ids.includes(id));
  const free = await submitAs(FREE, kind, 'free, waiting');
  const pro = await submitAs(PRO, kind, 'pro');
  const enterprise = await submitAs(ENTERPRISE, kind, 'enterprise');
  const ids = [free.id, pro.id, enterprise.id];
  expect(await recordOrder(ids)).toEqual([enterprise.id, pro.id, free.id]);

  expect(await aging(5).pass()).toEqual(expect.arrayContaining([free.id, pro.id]));
  // Both moved to the top level, behind the Enterprise job already there, oldest first.
  expect(await queueOrder(ids)).toEqual([enterprise.id, free.id, pro.id]);
  expect(await recordOrder(ids)).toEqual([enterprise.id, free.id, pro.id]);
});

it('reaches jobs still to move however many older ones already moved', async () => {
  const kind = 'video';
  const older = [await submitAs(FREE, kind, 'first'), await submitAs(FREE, kind, 'second')];
  // A pass of two moves the two oldest.
  expect(await aging(5, 2).pass()).toEqual(older.map((job) => job.id));
  const newer = await submitAs(FREE, kind, 'third');
  // The next pass of two looks past them, at the one still waiting at its plan's level.
  expect(await aging(5, 2).pass()).toEqual([newer.id]);
});
