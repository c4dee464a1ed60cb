import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src';

describe('worker configuration', () => {
  it('has defaults for metrics, deadline, breaker, locks and rate limits', () => {
    const config = loadWorkerConfig({});
    expect(config.metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(config.jobDeadlineMs).toBe(15 * 60_000);
    expect(config.breaker).toEqual({
      failureThresholdPercent: 50,
      volumeThreshold: 10,
      windowMs: 10_000,
      cooldownMs: 30_000,
    });
    expect(config.lockMs).toBe(30_000);
    expect(config.defaultRetryAfterMs).toBe(1000);
    expect(config.rateLimits).toEqual({});
    expect(config.workerName).toMatch(/:\d+$/);
  });

  it('turns the metrics endpoint off with port 0 and reads static rate limits as max/durationMs', () => {
    const config = loadWorkerConfig({
      WORKER_METRICS_PORT: '0',
      RATE_LIMIT_IMAGE: '10/1000',
      RATE_LIMIT_SPEECH: '3/60000',
    });
    expect(config.metrics).toBeNull();
    expect(config.rateLimits).toEqual({ image: { max: 10, duration: 1000 }, speech: { max: 3, duration: 60_000 } });
  });

  it('refuses a malformed rate limit or threshold, naming the variable', () => {
    expect(() => loadWorkerConfig({ RATE_LIMIT_VIDEO: 'ten per second' })).toThrow(
      /RATE_LIMIT_VIDEO: must look like max\/durationMs/,
    );
    expect(() => loadWorkerConfig({ RATE_LIMIT_VIDEO: '0/1000' })).toThrow(/RATE_LIMIT_VIDEO/);
    expect(() => loadWorkerConfig({ BREAKER_FAILURE_THRESHOLD: '150' })).toThrow(/BREAKER_FAILURE_THRESHOLD/);
  });
});
