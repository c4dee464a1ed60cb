import { queueName } from '@mediagen/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { WorkerHarness, videoRequest } from './support/harness';

/**
 * What a run asks of the queue's Redis (delaying a polling video, saving its step) can fail for reasons
 * that are not the generation's: a failover promotes a replica that never saw this run's lock. The run
 * must stop without failing the generation; the job comes back and the video resumes its paid task.
 */
const harness = new WorkerHarness();

// Every provider answer takes a while, so a polling run holds its lock long enough to be robbed of it.
beforeAll(() => harness.start({ latencyMs: 300, videoQueueingMs: 300, videoProcessingMs: 600 }));
afterAll(() => harness.stop());

it('a polling video whose job lock vanished mid-run completes on its one task, however few attempts it has', async () => {
  const pool = await harness.startWorkers({ kinds: ['video'], lockMs: 1000 });
  // One attempt: a queue failure counted against the generation would fail it at once.
  const { job, id, uid } = await harness.submit('video', videoRequest(), { attempts: 1 });
  const lockKey = `${harness.prefix}:${queueName('video')}:${id}:lock`;

  // The lock is deleted while a poll is out, as a failover to a replica that never had it does.
  await vi.waitUntil(
    async () => (await harness.lifecycle.find(id))?.providerTaskId != null && (await harness.redis.del(lockKey)) === 1,
    { timeout: 10_000, interval: 10 },
  );

  const { state, generation } = await harness.settled('video', job);
  expect(generation).toMatchObject({ status: 'completed', token: 'spent', error: null });
  expect(state).toBe('completed');
  expect(harness.simulator.stats().videoTasksCreated).toBe(1);
  expect((await harness.balance(uid)).video).toBe(0);
  const logs = (await harness.queue('video').getJobLogs(id)).logs.join('\n');
  expect(logs).not.toMatch(/failed/);
  // Operators see it happen.
  const leftToQueue = await pool.metrics.registry.getSingleMetric('mediagen_worker_runs_left_to_queue_total')!.get();
  expect(leftToQueue.values).toEqual([{ labels: { kind: 'video' }, value: 1 }]);
});
