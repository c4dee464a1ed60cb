import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { WorkerHarness, imageRequest } from './support/harness';

/**
 * A failure of our own, not the provider's (here the artifact store cannot make its directory: a file is
 * in the way): the creator reads the kind's plain failure, and the worker's log keeps what was thrown, the
 * one thing an operator needs to fix it.
 */
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  const inTheWay = join(harness.dataDir, 'a-file-in-the-way');
  await writeFile(inTheWay, '');
  await harness.startWorkers({
    kinds: ['image'],
    artifactStore: { kind: 'file', directory: join(inTheWay, 'artifacts') },
  });
});
afterAll(() => harness.stop());

it("fails with the kind's plain message, and the worker's log says what was thrown", async () => {
  const warnings = vi.spyOn(console, 'warn');
  try {
    const { job } = await harness.submit('image', imageRequest(), { attempts: 2 });
    const { state, generation } = await harness.settled('image', job);
    expect(state).toBe('failed');
    expect(generation.error).toMatchObject({
      code: 'IMAGE_FAILED',
      message: expect.stringMatching(/^Failed to generate image/),
    });
    const lines = warnings.mock.calls.map(([line]) => String(line));
    const told = lines.filter((line) => line.includes(`${job.id}: unexpected error:`));
    // Once per attempt, with the file system's own words.
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(/ENOTDIR|EEXIST/);
  } finally {
    warnings.mockRestore();
  }
});
