import type { Redis } from 'ioredis';

/**
 * Progress is not a transition: it changes many times a second and losing one is harmless, so it never
 * touches the record. Workers publish it with the version of the state it belongs to; every server hears
 * it on one Redis channel, and the latest value per generation is kept for an hour for readers that
 * come later (a reload mid-video).
 */
export interface ProgressEvent {
  id: string;
  uid: string;
  /** The version of the generation's state this progress belongs to. */
  version: number;
  /** 0..99. */
  progress: number;
  /** When it was published (ms), for the delivery lag. */
  at: number;
}

const LATEST_TTL_SECONDS = 60 * 60;

export const progressChannel = (prefix: string) => `${prefix}:progress`;
const latestKey = (prefix: string, id: string) => `${prefix}:progress:${id}`;

export async function publishProgress(redis: Redis, prefix: string, event: ProgressEvent): Promise<void> {
  const message = JSON.stringify(event);
  await redis
    .multi()
    .set(latestKey(prefix, event.id), message, 'EX', LATEST_TTL_SECONDS)
    .publish(progressChannel(prefix), message)
    .exec();
}

export function parseProgressEvent(message: string): ProgressEvent | null {
  try {
    const event = JSON.parse(message) as ProgressEvent;
    return typeof event.id === 'string' && typeof event.version === 'number' && typeof event.progress === 'number'
      ? event
      : null;
  } catch {
    return null;
  }
}

/** The latest progress published for each of these generations, where there is one. */
export async function latestProgress(
  redis: Redis,
  prefix: string,
  ids: readonly string[],
): Promise<Map<string, ProgressEvent>> {
  if (ids.length === 0) return new Map();
  const stored = await redis.mget(ids.map((id) => latestKey(prefix, id)));
  const found = new Map<string, ProgressEvent>();
  stored.forEach((value) => {
    const event = value === null ? null : parseProgressEvent(value);
    if (event !== null) found.set(event.id, event);
  });
  return found;
}

/** Drops the latest progress kept for these generations (they were deleted: nothing of them stays). */
export async function forgetProgress(redis: Redis, prefix: string, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await redis.del(...ids.map((id) => latestKey(prefix, id)));
}
