import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '@mediagen/core';
import { ProviderBusyError } from '../src/providers/provider-calls';
import { ProviderRateLimiter, type ProviderLimitSettings } from '../src/providers/provider-rate-limiter';
import { QueueStepError } from '../src/queue-step-error';
import { REDIS_URL } from './support/harness';

const prefix = `test-limiter-${randomUUID()}`;
const connections: Redis[] = [];

beforeAll(async () => {
  for (let index = 0; index < 2; index += 1) connections.push(await connectRedis(REDIS_URL, 'blocking'));
});
afterAll(async () => {
  const keys = await connections[0]!.keys(`${prefix}*`);
  if (keys.length > 0) await connections[0]!.del(...keys);
  await Promise.all(connections.map((connection) => connection.quit()));
});

/** Two limiters on two connections stand for two worker processes sharing one Redis. */
function twoProcesses(
  settings: ProviderLimitSettings,
  scope = randomUUID(),
): [ProviderRateLimiter, ProviderRateLimiter] {
  return [
    new ProviderRateLimiter(connections[0]!, `${prefix}:${scope}`, settings),
    new ProviderRateLimiter(connections[1]!, `${prefix}:${scope}`, settings),
  ];
}

async function refusal(attempt: Promise<void>): Promise<ProviderBusyError> {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderBusyError);
  return error as ProviderBusyError;
}

const settings = (
  limits: ProviderLimitSettings['limits'],
  extra: Partial<ProviderLimitSettings> = {},
): ProviderLimitSettings => ({
  limits,
  marginMs: 0,
  defaultPauseMs: 1000,
  ...extra,
});

/** When each of `count` concurrent calls got its turn, in ms after the first, in order. */
async function turns(take: () => Promise<void>, count: number): Promise<number[]> {
  const started = performance.now();
  const at = await Promise.all(Array.from({ length: count }, () => take().then(() => performance.now() - started)));
  return at.sort((a, b) => a - b);
}

describe('ProviderRateLimiter', () => {
  it('spaces the calls of every process on one schedule: window / max apart, so no window holds more than max', async () => {
    const [first, second] = twoProcesses(settings({ stability: { max: 5, windowMs: 500, lockoutMs: 60_000 } }));
    let alternate = 0;
    const times = await turns(() => ((alternate += 1) % 2 ? first : second).acquire('stability', 'text_to_image'), 6);
    // Call i's turn is i × 100 ms after the first reservation, which came after `turns` started, so
    // each call must come at or after its turn: the 6th a whole window after the first, and no 500 ms
    // holds more than 5. Two schedules, one per process, would send calls two at a time (0, 0, 100, …).
    // A busy host wakes calls late, which this allows; Node's timers may fire a few ms early, since
    // they count from the event loop's cached clock.
    times.forEach((at, index) => expect(at).toBeGreaterThanOrEqual(index * 100 - 10));
    expect(times[5]!).toBeLessThan(1500);
  });

  it('sends a call whose turn is further off than maxWaitMs back to its queue, reserving nothing', async () => {
    const [limiter] = twoProcesses(
      settings({ stability: { max: 10, windowMs: 1000, lockoutMs: 0 } }, { maxWaitMs: 250 }),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => limiter.acquire('stability', 'text_to_image')),
    );
    // Turns at 0, 100 and 200 ms; the fourth, at 300 ms, is further off than 250 ms.
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as ProviderBusyError;
    expect(error).toBeInstanceOf(ProviderBusyError);
    expect(error).toMatchObject({ reason: 'throttled' });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(100);
  });

  it('counts only the call the provider documents a limit for, and leaves unlimited providers alone', async () => {
    const [limiter] = twoProcesses(
      settings({ minimax: { max: 1, windowMs: 60_000, lockoutMs: 0 } }, { maxWaitMs: 1000 }),
    );
    await limiter.acquire('minimax', 'video_start');
    await refusal(limiter.acquire('minimax', 'video_start'));
    // Polls and file calls are not in MiniMax's video generation RPM.
    const started = performance.now();
    for (let call = 0; call < 10; call += 1) await limiter.acquire('minimax', 'video_query');
    for (let call = 0; call < 10; call += 1) await limiter.acquire('openai', 'speech');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('widens every window by the margin, so a request slow on the way never lands in the next one', async () => {
    const [limiter] = twoProcesses(settings({ stability: { max: 1, windowMs: 100, lockoutMs: 0 } }, { marginMs: 400 }));
    const times = await turns(() => limiter.acquire('stability', 'text_to_image'), 2);
    // The second turn is (100 + 400) ms after the first: at or after it, bar a few ms of early timer.
    expect(times[1]!).toBeGreaterThanOrEqual(490);
  });

  it('stops waiting for its turn when the job is canceled', async () => {
    const [limiter] = twoProcesses(settings({ stability: { max: 1, windowMs: 5000, lockoutMs: 0 } }));
    await limiter.acquire('stability', 'text_to_image');
    const controller = new AbortController();
    const waiting = limiter.acquire('stability', 'text_to_image', controller.signal);
    const canceled = new Error('canceled');
    controller.abort(canceled);
    await expect(waiting).rejects.toBe(canceled);
  });

  it('a lockout holds back every call of every process to that provider, and is never shortened', async () => {
    const [first, second] = twoProcesses(settings({ stability: { max: 150, windowMs: 10_000, lockoutMs: 60_000 } }));
    await first.lockOut('stability', 60_000);
    await first.lockOut('stability', 10);
    const refused = await refusal(second.acquire('stability', 'text_to_image'));
    expect(refused.retryAfterMs).toBeGreaterThan(59_000);
    expect(refused.message).toMatch(/lockout/);
    await expect(second.acquire('minimax', 'video_start')).resolves.toBeUndefined();
  });

  it('Redis away (an outage, a failover) is a step for the queue to take again, not a failure of the generation', async () => {
    const lost = await connectRedis(REDIS_URL, 'producer');
    lost.disconnect();
    const limiter = new ProviderRateLimiter(lost, `${prefix}:${randomUUID()}`, settings({}));
    // The job runner leaves a QueueStepError to the queue's recovery, the record unchanged; any other error
    // would fail an attempt of the generation (three during a failover failed a video polling its task).
    await expect(limiter.acquire('minimax', 'video_query')).rejects.toBeInstanceOf(QueueStepError);
    await expect(limiter.lockOut('minimax', 1000)).rejects.toBeInstanceOf(QueueStepError);
  });

  it("pauses after a provider's 429 for its documented lockout, else its Retry-After, else the default", () => {
    const [limiter] = twoProcesses(
      settings({
        stability: { max: 150, windowMs: 10_000, lockoutMs: 60_000 },
        minimax: { max: 20, windowMs: 60_000, lockoutMs: 0 },
      }),
    );
    expect(limiter.pauseAfterRefusal('stability', 1000)).toBe(60_000);
    expect(limiter.pauseAfterRefusal('stability', undefined)).toBe(60_000);
    expect(limiter.pauseAfterRefusal('minimax', 3000)).toBe(3000);
    expect(limiter.pauseAfterRefusal('minimax', undefined)).toBe(1000);
    expect(limiter.pauseAfterRefusal('openai', undefined)).toBe(1000);
  });
});
