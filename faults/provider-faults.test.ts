import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSimulator, type FaultRule, type Simulator } from '@mediagen/simulator';
import {
  ERROR_MESSAGES,
  TOKEN_ENDING_SENTENCES,
  creatorFailureMessage,
  type Generation,
  type GenerationKind,
} from '@mediagen/shared';
import type { GenerationWorkers } from '@mediagen/worker';
import {
  createTestContext,
  createTestUser,
  startTestWorkers,
  type TestApp,
  type TestContext,
} from '@mediagen/server/testing';
import { REQUESTS, call, finalState, submit, tokens } from './support/api';

/**
 * Every provider fault the simulator can inject, through the whole API (HTTP in, real workers, socket
 * relay, ledger): each ends completed after retries, or failed with its catalogue message and a refund.
 * The workers use provider KEYS (pointed at the simulator) so the test can also check that no key ever
 * reaches an API answer. Speech has none: OpenAI's Realtime client connects only with wss://, and only a
 * worker of the simulator's (no key) trusts the certificate the simulator makes.
 */
const KEYS = {
  STABILITY_API_KEY: 'sk-stability-faults-0123456789abcdef',
  MINIMAX_API_KEY: 'minimax-faults-0123456789abcdef',
};
// Long enough that a loaded machine's slow answer is not taken for a hang: a retry after a malformed body
// that also timed out would be the second paid call, and stop the generation (2 s did, on a busy host).
const TIMEOUT_MS = 5000;

let context: TestContext;
let server: TestApp;
let simulator: Simulator;
let workers: GenerationWorkers;
const answers: string[] = [];

beforeAll(async () => {
  simulator = createSimulator({ latencyMs: 0, videoQueueingMs: 100, videoProcessingMs: 200 });
  await simulator.listen();
  context = await createTestContext();
  server = await context.start({ JOB_BACKOFF_MS: '100', JOB_ATTEMPTS: '3', RATE_LIMIT_PER_MINUTE: '100000' });
  workers = await startTestWorkers(context, simulator, {
    VIDEO_POLL_INTERVAL_MS: '50',
    STABILITY_TIMEOUT_MS: String(TIMEOUT_MS),
    WORKER_METRICS_PORT: '0',
    // Each case here is judged on its own; the circuit breaker (which would hold later image jobs back
    // after the failures of earlier cases) is the worker suite's to test.
    BREAKER_VOLUME_THRESHOLD: '1000',
    ...KEYS,
    STABILITY_API_BASE: simulator.url,
    MINIMAX_API_BASE: `${simulator.url}/v1`,
    // Stability's documented 60 s lockout after a 429, shortened so the 429 case ends in seconds.
    STABILITY_RATE_LIMIT: '150/10000/2000',
  });
});

afterAll(async () => {
  await workers?.close(1000);
  await context?.cleanup();
  await simulator?.close();
  // No answer of the API, in any of these runs, carried a provider key.
  const everything = answers.join('\n');
  for (const key of Object.values(KEYS)) expect(everything).not.toContain(key);
});

// Clears faults and counters, so each case counts its own provider requests.
beforeEach(async () => {
  await fetch(`${simulator.url}/__sim/reset`, { method: 'POST' });
});

interface Outcome {
  generation: Generation;
  elapsedMs: number;
  tokensBefore: number;
  tokensAfter: number;
}

async function run(kind: GenerationKind, faults: FaultRule[]): Promise<Outcome> {
  for (const rule of faults) simulator.injectFault(rule);
  const user = await createTestUser();
  const tokensBefore = (await tokens(server.origin, user))[kind];
  const started = Date.now();
  const accepted = await submit(server.origin, user, REQUESTS[kind]);
  answers.push(accepted.text);
  expect(accepted.status, accepted.text).toBe(202);
  const generation = await finalState(server.origin, user, accepted.body.id, 30_000);
  const elapsedMs = Date.now() - started;
  const listed = await call(server.origin, user, 'GET', '/api/generations');
  answers.push(JSON.stringify(generation), listed.text);
  return { generation, elapsedMs, tokensBefore, tokensAfter: (await tokens(server.origin, user))[kind] };
}

function expectCompleted(outcome: Outcome): void {
  expect(outcome.generation.status, JSON.stringify(outcome.generation.error)).toBe('completed');
  expect(outcome.tokensAfter).toBe(outcome.tokensBefore - 1);
}

/**
 * A failure the provider refused before any paid work gives the token back; once the provider may have
 * done paid work (it answered, or the call hung or dropped after reaching it), the token is used.
 */
function expectFailed(outcome: Outcome, code: string, message: string | RegExp, token: 'refunded' | 'spent'): void {
  expect(outcome.generation.status).toBe('failed');
  expect(outcome.generation.error?.code).toBe(code);
  if (typeof message === 'string') expect(outcome.generation.error?.message).toBe(message);
  else expect(outcome.generation.error?.message).toMatch(message);
  expect(outcome.generation.token).toBe(token);
  expect(outcome.tokensAfter).toBe(token === 'refunded' ? outcome.tokensBefore : outcome.tokensBefore - 1);
}

/** MAX_PAID_CALLS (2 by default): calls that may have cost money stop a generation after this many. */
const PAID_CALLS_SPENT = /the provider could not finish it in the attempts allowed/;

describe('retried, then completed', () => {
  it('image: 429 with Retry-After waits at least that long, then completes', async () => {
    const outcome = await run('image', [{ route: 'image', fault: 'http429', retryAfterSeconds: 2, times: 1 }]);
    expectCompleted(outcome);
    expect(simulator.stats().requests.image).toBe(2);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(2000);
  });

  it('image: one 500', async () => {
    expectCompleted(await run('image', [{ route: 'image', fault: 'http500', times: 1 }]));
    expect(simulator.stats().requests.image).toBe(2);
  });

  it('image: one hang past STABILITY_TIMEOUT_MS', async () => {
    const outcome = await run('image', [{ route: 'image', fault: 'hang', times: 1 }]);
    expectCompleted(outcome);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it('image: one malformed body', async () => {
    expectCompleted(await run('image', [{ route: 'image', fault: 'malformed', times: 1 }]));
  });

  it('speech: one connection dropped mid-reading (read again on a new connection)', async () => {
    expectCompleted(await run('speech', [{ route: 'realtime.response', fault: 'drop', times: 1 }]));
    expect(simulator.stats().requests['realtime.response']).toBe(2);
    expect(simulator.stats().requests['realtime.connect']).toBe(2);
  });

  it('speech: one rate-limited response', async () => {
    expectCompleted(
      await run('speech', [{ route: 'realtime.response', fault: 'rate-limit', retryAfterSeconds: 1, times: 1 }]),
    );
  });

  it('speech: one 429 at the handshake', async () => {
    expectCompleted(
      await run('speech', [{ route: 'realtime.connect', fault: 'http429', retryAfterSeconds: 1, times: 1 }]),
    );
  });

  it('video: 500s and a dropped connection while polling keep the same task', async () => {
    const outcome = await run('video', [
      { route: 'video.query', fault: 'http500', times: 2 },
      { route: 'video.query', fault: 'drop', times: 1 },
    ]);
    expectCompleted(outcome);
    expect(simulator.stats().videoTasksCreated).toBe(1);
  });

  it('video: a 429 on create', async () => {
    expectCompleted(await run('video', [{ route: 'video.create', fault: 'http429', retryAfterSeconds: 1, times: 1 }]));
    expect(simulator.stats().videoTasksCreated).toBe(1);
  });
});

describe('failed with the catalogue message; the token back unless the provider may have done paid work', () => {
  it('image: 500 every time', async () => {
    expectFailed(
      await run('image', [{ route: 'image', fault: 'http500' }]),
      'IMAGE_PROVIDER_ERROR',
      /^Image generation is unavailable right now\. Your token was returned\.$/,
      'refunded',
    );
    expect(simulator.stats().requests.image).toBe(3);
  });

  it('image: hangs every time (each hang may have been paid: stopped after two calls)', async () => {
    expectFailed(await run('image', [{ route: 'image', fault: 'hang' }]), 'IMAGE_FAILED', PAID_CALLS_SPENT, 'spent');
    expect(simulator.stats().requests.image).toBe(2);
  });

  it('image: malformed every time (answered, so paid: stopped after two calls)', async () => {
    expectFailed(
      await run('image', [{ route: 'image', fault: 'malformed' }]),
      'IMAGE_FAILED',
      PAID_CALLS_SPENT,
      'spent',
    );
    expect(simulator.stats().requests.image).toBe(2);
  });

  it('speech: connection dropped mid-reading every time', async () => {
    expectFailed(
      await run('speech', [{ route: 'realtime.response', fault: 'drop' }]),
      'SPEECH_FAILED',
      PAID_CALLS_SPENT,
      'spent',
    );
  });

  it('speech: a reading that strays every time (paid for, but not by the creator)', async () => {
    expectFailed(
      await run('speech', [{ route: 'realtime.response', fault: 'stray' }]),
      'SPEECH_FAILED',
      'Failed to generate speech: the voice did not read your text as written. Your token was returned.',
      'refunded',
    );
    expect(simulator.stats().requests['realtime.response']).toBe(2);
  });

  it("video: the task reports 'Fail'", async () => {
    expectFailed(
      await run('video', [{ route: 'video.query', fault: 'fail-status' }]),
      'VIDEO_FAILED_ON_SERVER',
      ERROR_MESSAGES.VIDEO_FAILED_ON_SERVER,
      'spent',
    );
  });

  it("video: an unknown status (the creator reads a plain message; 'Unexpected status: Mystery' is the operators')", async () => {
    expectFailed(
      await run('video', [{ route: 'video.query', fault: 'unknown-status', status: 'Mystery' }]),
      'VIDEO_UNEXPECTED_STATUS',
      `${creatorFailureMessage('video', 'unavailable')} ${TOKEN_ENDING_SENTENCES.spent}`,
      'spent',
    );
  });

  it('video: malformed status bodies are polled again, and the same task completes', async () => {
    expectCompleted(await run('video', [{ route: 'video.query', fault: 'malformed', times: 3 }]));
    expect(simulator.stats().videoTasksCreated).toBe(1);
  });
});
