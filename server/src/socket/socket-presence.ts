import type { Redis } from 'ioredis';

// KEYS: the user's presence set. ARGV: now, cap, this entry's expiry, member, key ttl (ms).
// Entries of servers that died without saying goodbye lapse at their expiry, so a crash frees its slots.
const ADMIT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

type PresenceRedis = Redis & { admitSocket(...args: (string | number)[]): Promise<number> };

/**
 * How many sockets each user holds across every server instance: a sorted set per user of
 * `<instance>:<socket>` entries scored by when they lapse. Each instance renews its own entries while
 * the sockets live and removes them on disconnect.
 */
export class SocketPresence {
  private readonly redis: PresenceRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly instanceId: string,
    private readonly cap: number,
    /** How long an entry lives without being renewed. */
    private readonly leaseMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    redis.defineCommand('admitSocket', { numberOfKeys: 1, lua: ADMIT_SCRIPT });
    this.redis = redis as PresenceRedis;
  }

  /** Takes a slot for this socket; false when the user already holds `cap` sockets. */
  async admit(uid: string, socketId: string): Promise<boolean> {
    const now = this.clock();
    const admitted = await this.redis.admitSocket(
      this.key(uid),
      now,
      this.cap,
      now + this.leaseMs,
      this.member(socketId),
      this.leaseMs,
    );
    return admitted === 1;
  }

  async leave(uid: string, socketId: string): Promise<void> {
    await this.redis.zrem(this.key(uid), this.member(socketId));
  }

  /** Extends the lease of every socket this instance holds. */
  async renew(sockets: readonly { uid: string; socketId: string }[]): Promise<void> {
    if (sockets.length === 0) return;
    const expiry = this.clock() + this.leaseMs;
    const pipeline = this.redis.pipeline();
    for (const { uid, socketId } of sockets) {
      pipeline.zadd(this.key(uid), 'XX', expiry, this.member(socketId));
      pipeline.pexpire(this.key(uid), this.leaseMs);
    }
    await pipeline.exec();
  }

  /** Forgets a user's presence altogether (their account was closed). */
  async forget(uid: string): Promise<void> {
    await this.redis.del(this.key(uid));
  }

  private key(uid: string): string {
    return `${this.prefix}:{${uid}}:sockets`;
  }

  private member(socketId: string): string {
    return `${this.instanceId}:${socketId}`;
  }
}
