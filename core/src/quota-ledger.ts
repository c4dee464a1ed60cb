import type { Redis } from 'ioredis';
import {
  GENERATION_KINDS,
  TOKEN_ALLOWANCE,
  TOKEN_RESET_PERIOD_MS,
  isResetDue,
  type GenerationKind,
  type TokenBalance,
} from '@mediagen/shared';
import { userKeys } from './redis-keys';

/** A charge stays refundable for a little longer than one reset period. */
const CHARGE_TTL_SECONDS = 31 * 24 * 60 * 60;

// KEYS: quota hash, charge marker, the user's generations index.
// ARGV: kind, now, period, image/video/speech allowance, generation id, charge ttl.
const CONSUME_SCRIPT = `
local now = tonumber(ARGV[2])
local lastReset = tonumber(redis.call('HGET', KEYS[1], 'lastReset'))
if (not lastReset) or (now - lastReset >= tonumber(ARGV[3])) then
  lastReset = now
  redis.call('HSET', KEYS[1], 'image', ARGV[4], 'video', ARGV[5], 'speech', ARGV[6], 'lastReset', now)
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {2, lastReset}
end
local left = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if left <= 0 then
  return {0, lastReset}
end
redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
redis.call('SET', KEYS[2], lastReset, 'EX', ARGV[8])
redis.call('ZADD', KEYS[3], now, ARGV[7])
return {1, lastReset}
`;

// KEYS: quota hash, charge marker. ARGV: kind, allowance of that kind.
// A token charged before the latest reset is not given back: the reset already refilled the balance.
const REFUND_SCRIPT = `
local chargedIn = redis.call('GET', KEYS[2])
if not chargedIn then
  return 0
end
redis.call('DEL', KEYS[2])
if redis.call('HGET', KEYS[1], 'lastReset') ~= chargedIn then
  return 0
end
local left = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if left < tonumber(ARGV[2]) then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
end
return 1
`;

export type ConsumeOutcome =
  | { status: 'charged'; lastResetMs: number }
  | { status: 'already-charged'; lastResetMs: number }
  | { status: 'exhausted'; lastResetMs: number };

export interface Balance {
  tokens: TokenBalance;
  lastResetMs: number;
}

type LedgerRedis = Redis & {
  consumeToken(...args: (string | number)[]): Promise<[number, number]>;
  refundToken(...args: (string | number)[]): Promise<number>;
};

/** Token balances per user, in Redis, changed only by atomic scripts (DESIGN.md, quotas). */
export class QuotaLedger {
  /** How long a charge stays refundable; its remaining TTL tells its age. */
  readonly chargeTtlMs = CHARGE_TTL_SECONDS * 1000;
  private readonly redis: LedgerRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly allowance: TokenBalance = TOKEN_ALLOWANCE,
    private readonly clock: () => number = Date.now,
  ) {
    redis.defineCommand('consumeToken', { numberOfKeys: 3, lua: CONSUME_SCRIPT });
    redis.defineCommand('refundToken', { numberOfKeys: 2, lua: REFUND_SCRIPT });
    this.redis = redis as LedgerRedis;
  }

  /** Takes one token of `kind` for `generationId` and records the generation under the user; idempotent per id. */
  async consume(uid: string, kind: GenerationKind, generationId: string): Promise<ConsumeOutcome> {
    const keys = userKeys(this.prefix, uid);
    const [code, lastResetMs] = await this.redis.consumeToken(
      keys.quota,
      keys.charge(generationId),
      keys.generations,
      kind,
      this.clock(),
      TOKEN_RESET_PERIOD_MS,
      this.allowance.image,
      this.allowance.video,
      this.allowance.speech,
      generationId,
      CHARGE_TTL_SECONDS,
    );
    const status = code === 1 ? 'charged' : code === 2 ? 'already-charged' : 'exhausted';
    return { status, lastResetMs: Number(lastResetMs) };
  }

  /** Gives the token of a failed or canceled generation back, at most once. Returns whether it did. */
  async refund(uid: string, kind: GenerationKind, generationId: string): Promise<boolean> {
    const keys = userKeys(this.prefix, uid);
    const refunded = await this.redis.refundToken(keys.quota, keys.charge(generationId), kind, this.allowance[kind]);
    return refunded === 1;
  }

  /** A completed generation keeps its token: it can no longer be refunded. */
  async settle(uid: string, generationId: string): Promise<void> {
    await this.redis.del(userKeys(this.prefix, uid).charge(generationId));
  }

  async balance(uid: string): Promise<Balance> {
    const stored = await this.redis.hgetall(userKeys(this.prefix, uid).quota);
    const now = this.clock();
    const lastResetMs = Number(stored.lastReset);
    if (stored.lastReset === undefined || isResetDue(lastResetMs, now)) {
      return { tokens: { ...this.allowance }, lastResetMs: now };
    }
    const tokens = Object.fromEntries(
      GENERATION_KINDS.map((kind) => [kind, Math.max(0, Number(stored[kind] ?? 0))]),
    ) as TokenBalance;
    return { tokens, lastResetMs };
  }
}
