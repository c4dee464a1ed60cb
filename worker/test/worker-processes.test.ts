import { afterAll, beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import { WorkerHarness, imageRequest, type WorkerProcess } from './support/harness';

// Every provider call takes 3 s, so a SIGTERM finds jobs in the middle of their call.
const harness = new WorkerHarness();
const completions = new Map<string, number>();

beforeAll(async () => {
  await harness.start({ latencyMs: CALL_MS });
  harness
    .queueEvents('image')
    .on('completed', ({ jobId }) => completions.set(jobId, (completions.get(jobId) ?? 0) + 1));
});
afterAll(() => harness.stop(), 30_000);

const CALL_MS = 3000;
const GRACE_MS = 200;
// A call begun this recently still has 2.3 s to go once the grace period is over: room for a loaded host
// to take its time delivering the signal and stopping, and the job is still handed back.
const JUST_BEGUN_MS = 500;
const workerEnv = {
  WORKER_KINDS: 'image',
  CONCURRENCY_IMAGE: '2',
  SHUTDOWN_GRACE_MS: String(GRACE_MS),
  WORKER_LOCK_MS: '1000',
};
const nameOf = (worker: WorkerProcess) => worker.name;
// A hang guard: each test starts worker processes (up to 30 s each on a loaded host) and waits out calls.
const PROCESS_TEST_TIMEOUT_MS = 120_000;
// Eight 3-second calls, most of them on one process of concurrency 2 once the other has stopped: about
// 12 s on a quiet host, and over 20 s on a loaded one (seen).
const SETTLE_WITHIN_MS = 45_000;

async function submitMany(count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, index) => harness.submit('image', imageRequest(`picture ${index}`))),
  );
}

it(
  'two worker processes share the work, and SIGTERM to a busy one hands its jobs to the other: each completes once',
  async () => {
    const [first, second] = await Promise.all([
      harness.spawnWorker({ ...workerEnv, WORKER_NAME: 'first' }),
      harness.spawnWorker({ ...workerEnv, WORKER_NAME: 'second' }),
    ]);
    // Should an expectation fail, no worker of this test may take the next test's jobs.
    onTestFinished(() => [first, second].forEach((worker) => worker.kill('SIGKILL')));
    const submitted = await submitMany(8);
    // Stopped while both work, and while the first has a call far from its end: it cannot end within the
    // grace period, so that job must be handed back (a call about to end would simply complete).
    await vi.waitUntil(
      async () => {
        const active = await harness.queue('image').getActive();
        const callJustBegun = active.some(
          (job) => job.processedBy === nameOf(first) && Date.now() - (job.processedOn ?? 0) < JUST_BEGUN_MS,
        );
        return callJustBegun && active.some((job) => job.processedBy === nameOf(second));
      },
      { timeout: 10_000, interval: 10 },
    );

    first.kill('SIGTERM');
    const firstCode = await first.exited;
    expect(firstCode, first.output()).toBe(0);
    expect(first.output()).toContain('SIGTERM');
    expect(first.output()).toContain('handed back to the queue');

    const settled = await Promise.all(submitted.map(({ job }) => harness.settled('image', job, SETTLE_WITHIN_MS)));
    expect(settled.map(({ state }) => state)).toEqual(Array(8).fill('completed'));
    // Handed back, not failed: no job spent a second attempt.
    expect(settled.map(({ job }) => job.attemptsMade)).toEqual(Array(8).fill(1));
    await vi.waitUntil(() => submitted.every(({ job }) => completions.get(job.id!) === 1), {
      timeout: 2000,
      interval: 25,
    });
    expect([...completions.values()].every((count) => count === 1)).toBe(true);
    const processors = new Set(settled.map(({ job }) => job.processedBy));
    expect(processors.has(nameOf(second))).toBe(true);
    const logs = await Promise.all(submitted.map(({ job }) => harness.queue('image').getJobLogs(job.id!)));
    const handedBack = logs.filter(({ logs: lines }) =>
      lines.some((line) => line.includes('handed back to the queue')),
    );
    expect(handedBack.length, JSON.stringify(logs)).toBeGreaterThan(0);
    second.kill('SIGTERM');
    const secondCode = await second.exited;
    expect(secondCode, second.output()).toBe(0);
  },
  PROCESS_TEST_TIMEOUT_MS,
);

it(
  'jobs of a worker killed outright are taken over after WORKER_LOCK_MS',
  async () => {
    const doomed = await harness.spawnWorker(workerEnv);
    const submitted = await submitMany(2);
    // Its own jobs, by id: whatever an earlier test left behind must not stand in for them.
    const ids = submitted.map(({ job }) => job.id);
    await vi.waitUntil(
      async () => {
        const active = await harness.queue('image').getActive();
        return ids.every((id) => active.some((job) => job.id === id && job.processedBy === doomed.name));
      },
      { timeout: 10_000, interval: 25 },
    );
    doomed.kill('SIGKILL');
    await doomed.exited;

    const successor = await harness.spawnWorker(workerEnv);
    const settled = await Promise.all(submitted.map(({ job }) => harness.settled('image', job, SETTLE_WITHIN_MS)));
    expect(settled.map(({ state }) => state)).toEqual(['completed', 'completed']);
    expect(settled.map(({ job }) => job.processedBy)).toEqual([successor.name, successor.name]);
    // Moved back by the stalled check, once: a second stall would have failed the job.
    expect(settled.map(({ job }) => job.stalledCounter)).toEqual([1, 1]);
  },
  PROCESS_TEST_TIMEOUT_MS,
);
