import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { queueStep } from '../queue-step-error';
import { ProviderBusyError, type ProviderCall, type ProviderName } from './provider-calls';

/**
 * A provider's documented request limit: at most `max` requests in any `windowMs`, and after a 429 no
 * request at all for `lockoutMs` (Stability: 150 per 10 s, then 60 s locked out).
 */
export interface ProviderRateLimit {
  max: number;
  windowMs: number;
  lockoutMs: number;
}

export interface ProviderLimitSettings {
  /** Providers without an entry are not counted (their limit depends on the account's tier). */
  limits: Partial<Record<ProviderName, ProviderRateLimit>>;
  /**
   * Added to every window: the provider counts requests when they arrive, we when they leave, and a
   * request that takes longer on the way must not land in the provider's next window.
   */
  marginMs: number;
  /** The pause after a 429 when neither the provider nor its documented lockout says how long. */
  defaultPauseMs: number;
  /**
   * How long a call may hold its worker slot waiting for its turn; a later turn sends the job back to
   * its queue (ProviderBusyError) until its turn is near.
   */
  maxWaitMs?: number;
}

const DEFAULT_MAX_WAIT_MS = 5000;

/** The calls a provider's documented limit counts; its other calls only respect its lockout. */
const COUNTED_CALLS: Record<ProviderName, readonly ProviderCall[]> = {
  // Stability's limit counts every request to its API: a generation and a 4K upscale alike.
  stability: ['text_to_image', 'image_upscale'],
  // MiniMax documents an RPM for video generation (task creation); status and file calls are not in it.
  minimax: ['video_start'],
  openai: ['speech'],
};

/**
 * One schedule per provider, shared by every worker process through Redis: each counted call gets its
 * own turn, `intervalMs` after the previous one (GCRA with no burst), so calls leave evenly spaced and
 * any window holds fewer than `max` of them. Bursts would load a small machine just when timing
 * matters most, and the lag they cause can carry a request into the provider's next window. Redis' own
 * clock decides, so the processes' clocks need not agree.
 *
 * Returns `{1, waitMs, 0}` for a turn in `waitMs` (0: now); `{0, retryMs, 0}` when the next free turn is
 * further off than `maxWaitMs` (nothing reserved); `{0, remainingMs, 1}` during a lockout.
 */
const TAKE_TURN_SCRIPT = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return {0, locked, 1} end
local interval = tonumber(ARGV[1])
if interval == 0 then return {1, 0, 0} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local turn = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
local wait = turn - now
local maxWait = tonumber(ARGV[2])
if wait > maxWait then return {0, wait - maxWait, 0} end
redis.call('SET', KEYS[1], turn + interval, 'PX', math.ceil(wait + interval) + 1000)
return {1, wait, 0}
`;

/** Starts or lengthens a lockout, never shortens one. */
const LOCK_OUT_SCRIPT = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1
`;

type LimiterRedis = Redis & {
  takeProviderTurn(
    schedule: string,
    lockout: string,
    intervalMs: number,
    maxWaitMs: number,
  ): Promise<[number, number, number]>;
  lockOutProvider(lockout: string, ms: number): Promise<number>;
};

/**
 * Keeps every worker process together within each provider's documented rate limit, so the fleet runs
 * at the limit without ever triggering the provider's lockout, and holds every process back for the
 * whole lockout when a 429 comes anyway. A call whose turn is far off is refused with a
 * ProviderBusyError carrying how long to wait: the worker pauses that queue for as long.
 */
export class ProviderRateLimiter {
  private readonly redis: LimiterRedis;
  private readonly maxWaitMs: number;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly settings: ProviderLimitSettings,
  ) {
    redis.defineCommand('takeProviderTurn', { numberOfKeys: 2, lua: TAKE_TURN_SCRIPT });
    redis.defineCommand('lockOutProvider', { numberOfKeys: 1, lua: LOCK_OUT_SCRIPT });
    this.redis = redis as LimiterRedis;
    this.maxWaitMs = settings.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  }

  /** Both keys of a provider share a hash tag, so the script stays on one Redis Cluster slot. */
  private keys(provider: ProviderName) {
    const base = `${this.prefix}:provider-rate:{${provider}}`;
    return { schedule: `${base}:next-turn`, lockout: `${base}:lockout` };
  }

  /**
   * Resolves at the call's turn, or throws ProviderBusyError(`throttled`) saying when to come back.
   * `signal` ends the wait (cancel, deadline, shutdown) with its reason; the turn is then left unused.
   * Redis away or failing over is a QueueStepError: the run stops, the record unchanged, and the job comes
   * back (a video polling its paid task must not fail for our outage).
   */
  async acquire(provider: ProviderName, call: ProviderCall, signal?: AbortSignal): Promise<void> {
    const limit = this.settings.limits[provider];
    const counted = limit !== undefined && COUNTED_CALLS[provider].includes(call);
    const intervalMs = counted ? (limit.windowMs + this.settings.marginMs) / limit.max : 0;
    const keys = this.keys(provider);
    const [granted, waitMs, lockedOut] = await queueStep("take the provider's turn", () =>
      this.redis.takeProviderTurn(keys.schedule, keys.lockout, intervalMs, this.maxWaitMs),
    );
    if (granted === 1) {
      if (waitMs > 0)
        await sleep(waitMs, undefined, signal === undefined ? {} : { signal }).catch(() => signal?.throwIfAborted());
      return;
    }
    throw new ProviderBusyError(
      provider,
      'throttled',
      Math.max(1, waitMs),
      lockedOut === 1
        ? `${provider} lockout after a 429`
        : `${provider} rate limit of ${limit!.max} per ${limit!.windowMs} ms: next turn too far off`,
    );
  }

  /**
   * After the provider's own 429: how long every call to it waits, at least its documented lockout
   * (Stability locks a key out for 60 s whatever it says), else its Retry-After, else the default.
   */
  pauseAfterRefusal(provider: ProviderName, retryAfterMs: number | undefined): number {
    const lockoutMs = this.settings.limits[provider]?.lockoutMs ?? 0;
    return Math.max(lockoutMs, retryAfterMs ?? (lockoutMs > 0 ? 0 : this.settings.defaultPauseMs));
  }

  /** Holds back every process's calls to `provider` for `ms`; Redis away is a QueueStepError, as above. */
  async lockOut(provider: ProviderName, ms: number): Promise<void> {
    await queueStep('lock the provider out', () =>
      this.redis.lockOutProvider(this.keys(provider).lockout, Math.max(1, Math.round(ms))),
    );
  }
}
