import { afterAll, beforeAll, describe, it } from 'vitest';
import type { FaultRule } from '@mediagen/simulator';
import { expectCreatorView, rulesOf, startWalk, walkOne, type Walk } from './support/creator-view';

/**
 * Creators never read an operator's error (issue 34): every failure of MiniMax's routes, as the creator
 * reads it. Every code of MiniMax's table is walked where it first reaches a generation (its start); a task
 * already paid for meets one code of each way the worker treats them (asked again later, a limit, the
 * key refused, content refused, a final refusal), each code's own rule being the contract tests'.
 */
const PAID_TASK_CODES: ReadonlySet<number> = new Set([1000, 1002, 1004, 1008, 1026, 1039, 2013, 2056]);
const walked = (rule: FaultRule) =>
  rule.fault !== 'minimax-code' || rule.route === 'video.create' || PAID_TASK_CODES.has(rule.code!);

describe('every provider failure of a video, as the creator reads it', () => {
  let walk: Walk;
  beforeAll(async () => {
    walk = await startWalk({});
  }, 60_000);
  afterAll(() => walk.pipeline.close(), 60_000);

  it.each(rulesOf(['video.create', 'video.query', 'video.file', 'video.download']).filter(([, rule]) => walked(rule)))(
    'video: %s',
    async (_name, rule) => {
      expectCreatorView(rule, await walkOne(walk, 'video', rule));
    },
  );
});
