import { describe, expect, it } from 'vitest';
import { jobDeadlineOf, loadWorkerConfig, type WorkerConfigError } from '../src/config';
import { maxPollsFor } from '../src/processors/video-polling';
import { development, problemsOf, production, sharedSecrets } from './support/config-env';

describe('worker configuration', () => {
  it('has defaults for metrics, deadline, breaker, locks and rate limits', () => {
    const config = loadWorkerConfig(development);
    expect(config.metrics).toEqual({ port: 9464, host: '127.0.0.1', token: null });
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
      ...development,
      WORKER_METRICS_PORT: '0',
      RATE_LIMIT_IMAGE: '10/1000',
      RATE_LIMIT_SPEECH: '3/60000',
    });
    expect(config.metrics).toBeNull();
    expect(config.rateLimits).toEqual({ image: { max: 10, duration: 1000 }, speech: { max: 3, duration: 60_000 } });
  });

  it('refuses a malformed rate limit or threshold, naming the variable', () => {
    expect(problemsOf({ ...development, RATE_LIMIT_VIDEO: 'ten per second' })).toMatch(
      /RATE_LIMIT_VIDEO must look like max\/durationMs/,
    );
    expect(problemsOf({ ...development, RATE_LIMIT_VIDEO: '0/1000' })).toMatch(/RATE_LIMIT_VIDEO/);
    expect(problemsOf({ ...development, BREAKER_FAILURE_THRESHOLD: '150' })).toMatch(/BREAKER_FAILURE_THRESHOLD/);
  });
});

describe('webhook deliveries', () => {
  it("outside development, need the servers' webhook key, link secret and public address", () => {
    const { ARTIFACT_URL_SECRET: _a, PUBLIC_URL: _p, WEBHOOK_SECRET_KEY: _w, ...withoutThem } = production;
    const problems = problemsOf(withoutThem);
    for (const name of ['ARTIFACT_URL_SECRET', 'PUBLIC_URL', 'WEBHOOK_SECRET_KEY']) {
      expect(problems).toContain(`Missing required environment variable: ${name}`);
    }
    expect(loadWorkerConfig(production).webhooks).toMatchObject({
      allowLoopback: false,
      timeoutMs: 10_000,
      retryDelaysMs: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      artifactLinks: { publicUrl: 'https://api.mediagen.example' },
    });
    expect(loadWorkerConfig(development).webhooks.allowLoopback).toBe(true);
  });
});

describe('the simulator is a development tool', () => {
  it('serves every provider without a key in development mode', () => {
    const config = loadWorkerConfig(development);
    for (const provider of ['stability', 'minimax', 'openai'] as const) expect(config[provider].simulated).toBe(true);
    expect(config.videoDownload.developmentHosts).toEqual(['127.0.0.1:4010']);
  });

  it("outside development, every kind the worker serves needs its provider's key, named at once", () => {
    const problems = problemsOf({
      DATABASE_URL: production.DATABASE_URL,
      REDIS_URL: production.REDIS_URL,
      DATA_DIR: production.DATA_DIR,
      ...sharedSecrets,
    });
    for (const name of ['STABILITY_API_KEY', 'MINIMAX_API_KEY', 'OPENAI_API_KEY']) {
      expect(problems).toContain(`Missing required environment variable: ${name}`);
    }
    // A worker of one kind needs that kind's key only.
    const imageOnly = loadWorkerConfig({
      DATABASE_URL: production.DATABASE_URL,
      REDIS_URL: production.REDIS_URL,
      DATA_DIR: production.DATA_DIR,
      ...sharedSecrets,
      WORKER_KINDS: 'image',
      STABILITY_API_KEY: 'sk-stability-key',
    });
    expect(imageOnly.stability).toMatchObject({ simulated: false, baseUrl: 'https://api.stability.ai' });
  });

  it('outside development, refuses SIMULATOR_URL, and gives downloads no development hosts', () => {
    expect(problemsOf({ ...production, SIMULATOR_URL: 'http://127.0.0.1:4010' })).toContain(
      'SIMULATOR_URL must not be set unless MEDIAGEN_MODE=development',
    );
    expect(loadWorkerConfig(production).videoDownload.developmentHosts).toEqual([]);
  });

  it('outside development, a metrics endpoint beyond loopback needs METRICS_TOKEN', () => {
    expect(problemsOf({ ...production, WORKER_METRICS_HOST: '0.0.0.0' })).toContain(
      'Missing required environment variable: METRICS_TOKEN',
    );
    const guarded = loadWorkerConfig({
      ...production,
      WORKER_METRICS_HOST: '0.0.0.0',
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    expect(guarded.metrics).toEqual({ port: 9464, host: '0.0.0.0', token: 'scrape-token-0123456789' });
    expect(loadWorkerConfig(production).metrics?.host).toBe('127.0.0.1');
  });

  it('sends a MiniMax key to its region: global (api.minimax.io) by default, mainland (api.minimaxi.com) on request', () => {
    // No MINIMAX_GROUP_ID: file retrieval no longer takes one, so start-up does not demand it.
    const global = loadWorkerConfig({ ...development, MINIMAX_API_KEY: 'mm-key' });
    expect(global.minimax).toMatchObject({ baseUrl: 'https://api.minimax.io/v1', apiKey: 'mm-key', simulated: false });
    expect(global.minimax.groupId).toBeUndefined();
    const mainland = loadWorkerConfig({ ...development, MINIMAX_API_KEY: 'mm-key', MINIMAX_REGION: 'mainland' });
    expect(mainland.minimax.baseUrl).toBe('https://api.minimaxi.com/v1');
    // As .env.example leaves it: empty means the region's host.
    expect(loadWorkerConfig({ ...development, MINIMAX_API_KEY: 'mm-key', MINIMAX_API_BASE: '' }).minimax.baseUrl).toBe(
      'https://api.minimax.io/v1',
    );
    const proxied = loadWorkerConfig({
      ...development,
      MINIMAX_API_KEY: 'mm-key',
      MINIMAX_API_BASE: 'https://proxy.example/v1',
    });
    expect(proxied.minimax.baseUrl).toBe('https://proxy.example/v1');
    expect(() => loadWorkerConfig({ ...development, MINIMAX_REGION: 'europe' })).toThrow(
      /MINIMAX_REGION must be global or mainland/,
    );
  });

  it("sends the spec's video-01 under its published name, T2V-01, and refuses a model MiniMax does not publish at start-up", () => {
    expect(loadWorkerConfig(development).minimax.model).toBe('T2V-01');
    expect(loadWorkerConfig({ ...development, MINIMAX_VIDEO_MODEL: 'video-01' }).minimax.model).toBe('T2V-01');
    expect(loadWorkerConfig({ ...development, MINIMAX_VIDEO_MODEL: 'T2V-01-Director' }).minimax.model).toBe(
      'T2V-01-Director',
    );
    for (const model of ['I2V-01', 'video-02', 'MiniMax-Hailuo-03']) {
      expect(() => loadWorkerConfig({ ...development, MINIMAX_VIDEO_MODEL: model })).toThrow(
        /MINIMAX_VIDEO_MODEL must be one of MiniMax's published text-to-video models: T2V-01, T2V-01-Director, MiniMax-Hailuo-02, MiniMax-Hailuo-2.3/,
      );
    }
  });

  it('takes only a base model for MINIMAX_VIDEO_MODEL: Hailuo-2.3 is chosen by plan', () => {
    for (const model of ['MiniMax-Hailuo-02', 'MiniMax-Hailuo-2.3']) {
      expect(() => loadWorkerConfig({ ...development, MINIMAX_VIDEO_MODEL: model })).toThrow(
        /MINIMAX_VIDEO_MODEL must be a base model, T2V-01 or T2V-01-Director: MiniMax-Hailuo-2.3 is what the Pro and Enterprise plans make their videos with/,
      );
    }
  });

  it("polls each model for its own window, and lets each video job's deadline cover its model's", () => {
    const config = loadWorkerConfig({ ...development, VIDEO_POLL_INTERVAL_MS: '2000' });
    expect(config.videoPolling).toEqual({ intervalMs: 2000 });
    // The spec's 12 minutes for the base model; Hailuo's renders sometimes take longer: 30 minutes.
    expect(maxPollsFor(config.videoPolling, 'T2V-01')).toBe(360);
    expect(maxPollsFor(config.videoPolling, 'MiniMax-Hailuo-2.3')).toBe(900);
    // A Hailuo video (Pro's, Enterprise's) gets 18 more minutes; the base model's the spec's deadline.
    const deadline = jobDeadlineOf(config);
    const hailuo = { kind: 'video', request: { model: 'MiniMax-Hailuo-2.3', resolution: '1080P' } } as const;
    expect(deadline(hailuo)).toBe(33 * 60_000);
    expect(deadline({ kind: 'video', request: { model: 'T2V-01' } })).toBe(15 * 60_000);
    expect(deadline({ kind: 'video', request: {} })).toBe(15 * 60_000);
    expect(deadline({ kind: 'image', request: {} })).toBe(15 * 60_000);
    expect(deadline({ kind: 'speech', request: {} })).toBe(15 * 60_000);

    const fixed = loadWorkerConfig({ ...development, VIDEO_POLL_INTERVAL_MS: '2000', VIDEO_MAX_POLLS: '10' });
    expect(maxPollsFor(fixed.videoPolling, 'MiniMax-Hailuo-2.3')).toBe(10);
    expect(jobDeadlineOf(fixed)(hailuo)).toBe(15 * 60_000);
  });

  it('refuses a Stability engine id that now answers 404', () => {
    expect(loadWorkerConfig(development).stability.engine).toBe('stable-diffusion-xl-1024-v1-0');
    expect(loadWorkerConfig({ ...development, STABILITY_ENGINE: 'stable-diffusion-v1-6' }).stability.engine).toBe(
      'stable-diffusion-v1-6',
    );
    for (const engine of ['stable-diffusion-512-v2-1', 'stable-diffusion-xl-beta-v2-2-2']) {
      expect(() => loadWorkerConfig({ ...development, STABILITY_ENGINE: engine })).toThrow(
        /STABILITY_ENGINE must be one of .*404/,
      );
    }
  });

  it("limits Stability to its documented 150 per 10 s with a 60 s lockout; MiniMax and OpenAI only when told their tier's", () => {
    expect(loadWorkerConfig(development).providerLimits).toEqual({
      limits: { stability: { max: 150, windowMs: 10_000, lockoutMs: 60_000 } },
      marginMs: 400,
      defaultPauseMs: 1000,
    });
    const configured = loadWorkerConfig({
      ...development,
      STABILITY_RATE_LIMIT: 'off',
      MINIMAX_RATE_LIMIT: '20/60000',
      OPENAI_RATE_LIMIT: '500/60000/1000',
      PROVIDER_RATE_MARGIN_MS: '100',
    }).providerLimits;
    expect(configured).toMatchObject({
      limits: {
        minimax: { max: 20, windowMs: 60_000, lockoutMs: 0 },
        openai: { max: 500, windowMs: 60_000, lockoutMs: 1000 },
      },
      marginMs: 100,
    });
    expect(configured.limits.stability).toBeUndefined();
    expect(() => loadWorkerConfig({ ...development, MINIMAX_RATE_LIMIT: '20 per minute' })).toThrow(
      /MINIMAX_RATE_LIMIT must be off or look like/,
    );
    expect(() => loadWorkerConfig({ ...development, OPENAI_RATE_LIMIT: '0/1000' })).toThrow(/OPENAI_RATE_LIMIT/);
  });
});

describe('the speech model', () => {
  const beforeShutdown = Date.parse('2027-01-05T12:00:00Z');
  const afterShutdown = Date.parse('2027-01-06T00:00:01Z');

  it('reads with the Realtime model by default, with nothing to tell', () => {
    const config = loadWorkerConfig(development, afterShutdown);
    expect(config.speechModel).toBe('gpt-realtime-2.1-mini');
    expect(config.kinds).toEqual(['image', 'video', 'speech']);
    expect(config.notices).toEqual([]);
  });

  it('warns, naming the day, while a speech-endpoint model is still served', () => {
    const config = loadWorkerConfig({ ...development, SPEECH_MODEL: 'tts-1' }, beforeShutdown);
    expect(config.kinds).toContain('speech');
    expect(config.notices).toEqual([
      'SPEECH_MODEL=tts-1: OpenAI shuts tts-1 down on 2027-01-06 and speech stops then; set SPEECH_MODEL=gpt-realtime-2.1-mini (the Realtime API) before',
    ]);
  });

  it('serves no speech with it after its shutdown, says why, and keeps images and video running', () => {
    const config = loadWorkerConfig({ ...development, SPEECH_MODEL: 'tts-1-hd' }, afterShutdown);
    expect(config.kinds).toEqual(['image', 'video']);
    expect(config.notices).toEqual([
      'SPEECH_MODEL=tts-1-hd: OpenAI shut tts-1-hd down on 2027-01-06, so speech is not served; set SPEECH_MODEL=gpt-realtime-2.1-mini (the Realtime API)',
    ]);
  });

  it('refuses to start a worker of speech alone with a model that has been shut down', () => {
    let problems = '';
    try {
      loadWorkerConfig({ ...development, WORKER_KINDS: 'speech', SPEECH_MODEL: 'gpt-4o-mini-tts' }, afterShutdown);
    } catch (error) {
      problems = (error as WorkerConfigError).problems.join('\n');
    }
    expect(problems).toMatch(/^WORKER_KINDS=speech leaves nothing to serve: SPEECH_MODEL=gpt-4o-mini-tts: OpenAI shut/);
  });

  it('refuses a model that is not a speech model', () => {
    expect(problemsOf({ ...development, SPEECH_MODEL: 'gpt-realtime' })).toMatch(/SPEECH_MODEL.*must be one of/);
  });
});

describe('tracing', () => {
  it('is off by default, and names its spans mediagen-worker once an endpoint is set', () => {
    expect(loadWorkerConfig(development).tracing).toBeNull();
    expect(
      loadWorkerConfig({
        ...development,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'true',
      }).tracing,
    ).toBeNull();
    expect(
      loadWorkerConfig({
        ...development,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      }).tracing,
    ).toMatchObject({ serviceName: 'mediagen-worker', sampler: 'always_on', sampleRatio: 1 });
  });

  it('refuses a sampling ratio outside 0 to 1', () => {
    expect(
      problemsOf({
        ...development,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    ).toContain('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  });
});
