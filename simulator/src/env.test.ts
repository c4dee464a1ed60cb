import { describe, expect, it } from 'vitest';
import { readSimulatorEnv } from './env';

describe('readSimulatorEnv', () => {
  it('uses the defaults when nothing is set', () => {
    expect(readSimulatorEnv({})).toEqual({
      port: 4010,
      host: '127.0.0.1',
      options: {
        latencyMs: 0,
        videoQueueingMs: 1000,
        videoProcessingMs: 3000,
        faults: [],
        rateLimits: { stability: { max: 150, windowMs: 10_000, lockoutMs: 60_000 } },
        tlsPort: 4011,
        stripe: {},
        logger: true,
      },
    });
  });

  it("reads the Stripe stand-in's webhook endpoint and secret", () => {
    const { options } = readSimulatorEnv({
      STRIPE_WEBHOOK_URL: 'http://127.0.0.1:3000/api/billing/webhook',
      STRIPE_WEBHOOK_SECRET: 'whsec_local',
    });
    expect(options.stripe).toEqual({
      webhookUrl: 'http://127.0.0.1:3000/api/billing/webhook',
      webhookSecret: 'whsec_local',
    });
  });

  it('refuses a webhook URL that is not one, and a secret that is not a signing secret', () => {
    expect(() => readSimulatorEnv({ STRIPE_WEBHOOK_URL: 'localhost:3000' })).toThrow(/STRIPE_WEBHOOK_URL/);
    expect(() => readSimulatorEnv({ STRIPE_WEBHOOK_SECRET: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });

  it('reads every variable', () => {
    const env = readSimulatorEnv({
      SIMULATOR_PORT: '5000',
      SIMULATOR_HOST: '0.0.0.0',
      SIMULATOR_LATENCY_MS: '20',
      SIMULATOR_VIDEO_QUEUEING_MS: '10',
      SIMULATOR_VIDEO_PROCESSING_MS: '30',
      SIMULATOR_FAULTS: '[{"route":"speech","fault":"http429","times":2,"retryAfterSeconds":3}]',
      SIMULATOR_RATE_LIMITS: '{"minimax":{"max":20,"windowMs":60000}}',
      SIMULATOR_TLS_PORT: '0',
    });
    expect(env).toMatchObject({ port: 5000, host: '0.0.0.0' });
    expect(env.options).toMatchObject({
      latencyMs: 20,
      videoQueueingMs: 10,
      videoProcessingMs: 30,
      faults: [{ route: 'speech', fault: 'http429', times: 2, retryAfterSeconds: 3 }],
      rateLimits: { minimax: { max: 20, windowMs: 60_000, lockoutMs: 0 } },
      tlsPort: 0,
    });
    expect(readSimulatorEnv({ SIMULATOR_RATE_LIMITS: 'off' }).options.rateLimits).toBe('off');
  });

  it.each([
    [{ SIMULATOR_PORT: 'http' }, /SIMULATOR_PORT/],
    [{ SIMULATOR_PORT: '70000' }, /SIMULATOR_PORT/],
    [{ SIMULATOR_TLS_PORT: '-1' }, /SIMULATOR_TLS_PORT/],
    [{ SIMULATOR_LATENCY_MS: '-5' }, /SIMULATOR_LATENCY_MS/],
    [{ SIMULATOR_VIDEO_PROCESSING_MS: '1.5' }, /SIMULATOR_VIDEO_PROCESSING_MS/],
    [{ SIMULATOR_FAULTS: '{"route":"image"}' }, /SIMULATOR_FAULTS must be a JSON array/],
    [{ SIMULATOR_FAULTS: '[oops' }, /SIMULATOR_FAULTS .*not valid JSON/],
    [{ SIMULATOR_FAULTS: '[{"route":"image","fault":"hang"},{"route":"image"}]' }, /SIMULATOR_FAULTS\[1\]: fault/],
    [
      { SIMULATOR_RATE_LIMITS: '{"stabilty":{"max":1,"windowMs":1}}' },
      /SIMULATOR_RATE_LIMITS: unknown provider stabilty/,
    ],
    [{ SIMULATOR_RATE_LIMITS: '{"stability":{"max":0,"windowMs":1}}' }, /SIMULATOR_RATE_LIMITS\.stability/],
  ])('names the bad variable in %o', (env, message) => {
    expect(() => readSimulatorEnv(env)).toThrow(message);
  });
});
