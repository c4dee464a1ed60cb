import type { Redis } from 'ioredis';
import { cancellationChannel } from './redis-keys';

/**
 * A cancel is decided by the lifecycle (the record); this only tells the worker running the generation to
 * stop its provider call now rather than at its next step. A lost message costs that call's time, not
 * correctness: the worker's next transition is refused.
 */
export async function signalCancel(redis: Redis, prefix: string, generationId: string): Promise<void> {
  await redis.publish(cancellationChannel(prefix), generationId);
}

/** Calls `onCancel` with the id of every generation canceled from now on; returns the unsubscribe. */
export async function onCancelSignals(
  subscriber: Redis,
  prefix: string,
  onCancel: (generationId: string) => void,
): Promise<() => Promise<void>> {
  const channel = cancellationChannel(prefix);
  const listener = (from: string, generationId: string) => {
    if (from === channel) onCancel(generationId);
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}
