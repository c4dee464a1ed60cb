import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkerHarness, speechRequest } from './support/harness';

/** A worker on a day after OpenAI shut the speech endpoint's models down (2027-01-06). */
const AFTER_SHUTDOWN = Date.parse('2027-01-07T09:00:00Z');
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['speech'] }, { clock: () => AFTER_SHUTDOWN });
});
afterAll(() => harness.stop());

it('fails a speech recorded for a model since shut down, sending nothing and returning its token', async () => {
  const sentBefore = harness.simulator.stats().requests.speech;
  const { job, uid } = await harness.submit('speech', { ...speechRequest(), model: 'tts-1' }, { attempts: 3 });
  const { state, job: done, generation } = await harness.settled('speech', job);
  expect(state).toBe('failed');
  expect(done.attemptsMade).toBe(1);
  expect(done.failedReason).toBe(
    'Failed to generate speech: its voice model was retired by the provider. Your token was returned.',
  );
  expect(generation.token).toBe('refunded');
  expect((await harness.balance(uid)).speech).toBe(2);
  expect(harness.simulator.stats().requests.speech).toBe(sentBefore);
  const { logs } = await harness.queue('speech').getJobLogs(job.id!);
  expect(logs).toContain('openai tts-1: shut down by OpenAI on 2027-01-06; not sent');
});

it('goes on reading with the Realtime model', async () => {
  const { job } = await harness.submit('speech', { ...speechRequest(), model: 'gpt-realtime-2.1-mini' });
  expect((await harness.settled('speech', job)).state).toBe('completed');
});
