import type { Redis } from 'ioredis';

/** A safety net only: ids are removed when their job ends, or pruned when the set looks full. */
const IN_FLIGHT_TTL_SECONDS = 24 * 60 * 60;

// KEYS: the user's in-flight set. ARGV: max, generation id, ttl.
// Returns -1 when the id is already in flight (a repeated Idempotency-Key), 0 when it was added, and the
// number of generations in flight when the user is at the cap.
const RESERVE_SCRIPT = `
if redis.call('SISMEMBER', KEYS[1], ARGV[2]) == 1 then
  return -1
end
local count = redis.call('SCARD', KEYS[1])
if count >= tonumber(ARGV[1]) then
  return count
end
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 0
`;

export type ReserveOutcome = { reserved: true; alreadyHeld: boolean } | { reserved: false; inFlight: number };

type InFlightRedis = Redis & { reserveInFlight(key: string, max: number, id: string, ttl: number): Promise<number> };

/**
 * The generations a user has queued or running, as a Redis set per user (same `{uid}` hash tag as the
 * other per-user keys). A slot is reserved before the token is charged, so the cap can never be passed
 * by concurrent requests and a refused request spends nothing. Whoever sees a job end removes its id:
 * SREM is idempotent, so several server instances hearing the same event release it once.
 */
export class InFlightRegistry {
  private readonly redis: InFlightRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly max: number,
  ) {
    redis.defineCommand('reserveInFlight', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
    this.redis = redis as InFlightRedis;
  }

  key(uid: string): string {
    return `${this.prefix}:{${uid}}:in-flight`;
  }

  async reserve(uid: string, generationId: string): Promise<ReserveOutcome> {
    const code = await this.redis.reserveInFlight(this.key(uid), this.max, generationId, IN_FLIGHT_TTL_SECONDS);
    if (code === -1) return { reserved: true, alreadyHeld: true };
    if (code === 0) return { reserved: true, alreadyHeld: false };
    return { reserved: false, inFlight: code };
  }

  async release(uid: string, ...generationIds: string[]): Promise<void> {
    if (generationIds.length > 0) await this.redis.srem(this.key(uid), ...generationIds);
  }

  members(uid: string): Promise<string[]> {
    return this.redis.smembers(this.key(uid));
  }
}
