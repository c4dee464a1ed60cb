import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '@mediagen/simulator';
import { OPENAI_BILLING_CODES } from '../src/providers/openai-billing';
import { WorkerHarness, speechRequest } from './support/harness';

/**
 * Every answer OpenAI gives an account that cannot pay, on both ways speech is read: the job ends at
 * once with its token returned, never retried nor waited for as a rate limit, and the operators keep
 * OpenAI's exact answer while the creator reads a plain message.
 */
const harness = new WorkerHarness();

/** The speech endpoint's models are read as on a day before OpenAI shuts them down (2027-01-06). */
const BEFORE_SPEECH_ENDPOINT_SHUTDOWN = Date.parse('2027-01-05T12:00:00Z');

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['speech'] }, { clock: () => BEFORE_SPEECH_ENDPOINT_SHUTDOWN });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

const PATHS = [
  { name: 'the speech endpoint', model: 'tts-1', routes: ['speech'] },
  { name: 'the Realtime API', model: 'gpt-realtime-2.1-mini', routes: ['realtime.connect', 'realtime.response'] },
] as const;

describe.each(PATHS)('an OpenAI account that cannot pay, on $name', ({ model, routes }) => {
  it.each(routes.flatMap((route) => OPENAI_BILLING_CODES.map((code) => [route, code] as const)))(
    '%s answering %s ends the job at once, token returned, not retried',
    async (route, billingCode) => {
      const rule: FaultRule = { route, fault: 'insufficient-quota', billingCode };
      harness.simulator.injectFault(rule);
      const before = harness.simulator.stats().requests[route];
      const { job, uid } = await harness.submit(
        'speech',
        { ...speechRequest(`Billing ${billingCode} on ${route}.`), model },
        { attempts: 3 },
      );
      const { state, job: done, generation } = await harness.settled('speech', job);

      expect(state).toBe('failed');
      expect(done.attemptsMade).toBe(1);
      // Not even the official client's own retries (spec §9) go out again.
      expect(harness.simulator.stats().requests[route] - before).toBe(1);
      expect(generation.token).toBe('refunded');
      expect((await harness.balance(uid)).speech).toBe(2);
      expect(generation.error).toEqual({
        code: 'SPEECH_FAILED',
        message: 'Speech generation is unavailable right now. Your token was returned.',
      });
      expect(generation.providerError).toContain(billingCode);
      expect(generation.providerError).toMatch(/^openai http_4(29|xx): Failed to generate speech: OpenAI billing/);
      const { logs } = await harness.queue('speech').getJobLogs(job.id!);
      expect(logs.some((line) => line.includes('queue paused'))).toBe(false);
    },
  );
});
