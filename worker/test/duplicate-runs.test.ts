import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { artifactKey, markedCopyOf } from '@mediagen/core';
import { WorkerHarness, speechRequest } from './support/harness';

/**
 * Two runs of one job: a Redis failover can bring back a job whose run is still going. The run that
 * records its result first wins; the other must not take the winner's files with it.
 */
const harness = new WorkerHarness();

// Every provider answer takes a while, so the second run's call is still out when the first one ends.
beforeAll(() => harness.start({ latencyMs: 800 }));
afterAll(() => harness.stop());

it('a run that finishes after another run of its job recorded the result leaves that result’s files in place', async () => {
  const pool = await harness.startWorkers({ kinds: ['speech'] });
  const { job, id } = await harness.submit('speech', speechRequest());
  await vi.waitUntil(async () => ((await harness.lifecycle.find(id))?.paidCalls ?? 0) > 0, {
    timeout: 10_000,
    interval: 20,
  });

  // The other run finished first: its files (MP3, as speech is stored by default) are under the generation's
  // keys, and recorded.
  const mimeType = 'audio/mpeg';
  const [key, markedKey] = [artifactKey(id, mimeType), artifactKey(markedCopyOf(id), mimeType)];
  const audio = Buffer.from('ID3 the first run');
  await mkdir(harness.config.artifactsDir, { recursive: true });
  for (const file of [key, markedKey]) await writeFile(join(harness.config.artifactsDir, file), audio);
  const recorded = await harness.lifecycle.complete(id, { key, mimeType, bytes: audio.length, markedKey });
  expect(recorded.ok).toBe(true);

  // The record has ended already; this waits for the run still out to end too.
  await vi.waitUntil(async () => ['completed', 'failed'].includes(await job.getState()), {
    timeout: 10_000,
    interval: 20,
  });
  const generation = (await harness.lifecycle.find(id))!;
  expect(generation).toMatchObject({ status: 'completed', token: 'spent', artifact: { key, markedKey } });
  await expect(harness.artifactBytes(generation)).resolves.toHaveProperty('length');
  await expect(access(join(harness.config.artifactsDir, markedKey))).resolves.toBeUndefined();
  expect((await harness.queue('speech').getJobLogs(id)).logs.join('\n')).toMatch(
    /completed first; its recorded artifact kept/,
  );
  await pool.close(1000);
});
