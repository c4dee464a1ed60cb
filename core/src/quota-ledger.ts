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
/** A safety net only: ids leave the in-flight set when their job is settled or refunded. */
const IN_FLIGHT_TTL_SECONDS = 24 * 60 * 60;

// KEYS: quota hash, charge marker, the user's generations index, the user's in-flight set.
// ARGV: kind, now, period, image/video/speech allowance, generation id, charge ttl, max in flight,
// in-flight ttl.
// Returns {1, lastReset} charged, {2, lastReset} already charged (a repeated id), {0, lastReset} no token
// left, {3, count} at the in-flight cap. The cap is checked first: a request refused for fair use spends
// no token, and one that gets no token takes no slot.
const CONSUME_SCRIPT = `
local held = redis.call('SISMEMBER', KEYS[4], ARGV[7]) == 1
if not held then
  local count = redis.call('SCARD', KEYS[4])
  if count >= tonumber(ARGV[9]) then
    return {3, count}
  end
end
local now = tonumber(ARGV[2])
local lastReset = tonumber(redis.call('HGET', KEYS[1], 'lastReset'))
if (not lastReset) or (now - lastReset >= tonumber(ARGV[3])) then
  lastReset = now
  redis.call('HSET', KEYS[1], 'image', ARGV[4], 'video', ARGV[5], 'speech', ARGV[6], 'lastReset', now)
end
local code = 2
if redis.call('EXISTS', KEYS[2]) == 0 then
  local left = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
  if left <= 0 then
    return {0, lastReset}
  end
  redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
  redis.call('SET', KEYS[2], lastReset, 'EX', ARGV[8])
  redis.call('ZADD', KEYS[3], now, ARGV[7])
  code = 1
end
redis.call('SADD', KEYS[4], ARGV[7])
redis.call('EXPIRE', KEYS[4], ARGV[10])
return {code, lastReset}
`;

// KEYS: quota hash, charge marker, in-flight set. ARGV: kind, allowance of that kind, generation id.
// The generation has ended either way, so it leaves the in-flight set. A token charged before the latest
// reset is not given back: the reset already refilled the balance.
const REFUND_SCRIPT = `
redis.call('SREM', KEYS[3], ARGV[3])
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
  | { status: 'exhausted'; lastResetMs: number }
  | { status: 'too-many-in-flight'; inFlight: number };

const CONSUME_STATUSES = {
  0: 'exhausted',
  1: 'charged',
  2: 'already-charged',
} as const satisfies Record<number, ConsumeOutcome['status']>;

export interface Balance {
  tokens: TokenBalance;
  lastResetMs: number;
}

type LedgerRedis = Redis & {
  consumeToken(...args: (string | number)[]): Promise<[number, number]>;
  refundToken(...args: (string | number)[]): Promise<number>;
};

/**
 * Token balances per user, and the generations each user has in flight, in Redis, changed only by atomic
 * scripts (DESIGN.md, quotas). A generation enters the in-flight set when its token is charged and leaves
 * it when the token is settled (completed) or refunded (failed, canceled, never enqueued), so the fair-use
 * cap and the balance can never disagree, whichever process ends the job.
 */
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
    redis.defineCommand('consumeToken', { numberOfKeys: 4, lua: CONSUME_SCRIPT });
    redis.defineCommand('refundToken', { numberOfKeys: 3, lua: REFUND_SCRIPT });
    this.redis = redis as LedgerRedis;
  }

  /**
   * Takes one token of `kind` for `generationId`, records the generation under the user and counts it in
   * flight; idempotent per id. Refused, with nothing changed, when the user already has `maxInFlight`
   * other generations in flight.
   */
  async consume(
    uid: string,
    kind: GenerationKind,
    generationId: string,
    maxInFlight = Number.MAX_SAFE_INTEGER,
  ): Promise<ConsumeOutcome> {
    const keys = userKeys(this.prefix, uid);
    const [code, value] = await this.redis.consumeToken(
      keys.quota,
      keys.charge(generationId),
      keys.generations,
      keys.inFlight,
      kind,
      this.clock(),
      TOKEN_RESET_PERIOD_MS,
      this.allowance.image,
      this.allowance.video,
      this.allowance.speech,
      generationId,
      CHARGE_TTL_SECONDS,
      maxInFlight,
      IN_FLIGHT_TTL_SECONDS,
    );
    if (code === 3) return { status: 'too-many-in-flight', inFlight: Number(value) };
    return { status: CONSUME_STATUSES[code as 0 | 1 | 2], lastResetMs: Number(value) };
  }

  /**
   * Gives the token of a failed or canceled generation back, at most once, and takes the generation out
   * of flight. Returns whether a token was given back.
   */
  async refund(uid: string, kind: GenerationKind, generationId: string): Promise<boolean> {
    const keys = userKeys(this.prefix, uid);
    const refunded = await this.redis.refundToken(
      keys.quota,
      keys.charge(generationId),
      keys.inFlight,
      kind,
      this.allowance[kind],
      generationId,
    );
    return refunded === 1;
  }

  /** A completed generation keeps its token (it can no longer be refunded) and is no longer in flight. */
  async settle(uid: string, generationId: string): Promise<void> {
    const keys = userKeys(this.prefix, uid);
    await this.redis.multi().del(keys.charge(generationId)).srem(keys.inFlight, generationId).exec();
  }

  /** The ids the user has in flight. */
  inFlight(uid: string): Promise<string[]> {
    return this.redis.smembers(userKeys(this.prefix, uid).inFlight);
  }

  /** Takes ids out of flight without touching tokens: for jobs found gone or finished. */
  async release(uid: string, ...generationIds: string[]): Promise<void> {
    if (generationIds.length > 0) await this.redis.srem(userKeys(this.prefix, uid).inFlight, ...generationIds);
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
