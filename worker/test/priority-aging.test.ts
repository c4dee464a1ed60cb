import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import { PriorityAging } from '../src/priority-aging';
import { WorkerHarness, speechRequest } from './support/harness';

/** Paid plans' jobs run first, but a free job that has waited long enough runs next: no starvation. */
const harness = new WorkerHarness();
const FREE = 3;
const PRO = 2;
const ENTERPRISE = 1;
const MINUTE = 60_000;

beforeAll(() => harness.start());
afterAll(() => harness.stop());

function aging(minutesLater: number): PriorityAging {
  return new PriorityAging({
    db: harness.records.db,
    queues: Object.fromEntries(GENERATION_KINDS.map((kind) => [kind, harness.queue(kind)])) as Record<
      GenerationKind,
      ReturnType<WorkerHarness['queue']>
    >,
    afterMs: 2 * MINUTE,
    topPriority: ENTERPRISE,
    clock: () => Date.now() + minutesLater * MINUTE,
  });
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
