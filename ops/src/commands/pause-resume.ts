import type { GenerationKind } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';

export interface PauseResult {
  kind: GenerationKind;
  paused: boolean;
}

/**
 * A global BullMQ pause: no worker anywhere takes a new job of that kind; jobs already active finish.
 * Producers keep enqueueing, so the API stays up and users see their jobs waiting.
 */
export async function setPaused(
  ctx: OpsContext,
  kinds: readonly GenerationKind[],
  paused: boolean,
): Promise<PauseResult[]> {
  const results: PauseResult[] = [];
  for (const kind of kinds) {
    if (paused) await ctx.queues[kind].pause();
    else await ctx.queues[kind].resume();
    results.push({ kind, paused: await ctx.queues[kind].isPaused() });
  }
  return results;
}
