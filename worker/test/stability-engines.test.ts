import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkerHarness, imageRequest } from './support/harness';

const harness = new WorkerHarness();

beforeAll(() => harness.start({}, { STABILITY_ENGINE: 'stable-diffusion-v1-6' }));
afterAll(() => harness.stop());

it('sends SD 1.6 sizes within its 320..1536 bounds', async () => {
  await harness.startWorkers({ kinds: ['image'] });
  const { job } = await harness.submit('image', { ...imageRequest(), width: 2048, height: 512 });
  const { state, job: done, generation } = await harness.settled('image', job);
  expect(state, done.failedReason).toBe('completed');
  const bytes = await harness.artifactBytes(generation);
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1536, 512]);
});
