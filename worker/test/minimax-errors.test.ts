import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '@mediagen/simulator';
import { ERROR_MESSAGES } from '@mediagen/shared';
import { WorkerHarness, videoRequest } from './support/harness';

/**
 * MiniMax answers its errors with HTTP 200 and a `base_resp.status_code`
 * (https://platform.minimax.io/docs/api-reference/errorcode): each code ends the job, retries it or
 * waits, as the code means, with the spec's message.
 */
// Long enough for an answer on a loaded host beside the other suites (0.4 s was not), short for the hang test.
const START_TIMEOUT_MS = 2000;
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({
    kinds: ['video'],
    minimax: { ...harness.config.minimax, timeouts: { start: START_TIMEOUT_MS } },
  });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

async function run(faults: FaultRule[], attempts = 3) {
  for (const rule of faults) harness.simulator.injectFault(rule);
  const before = harness.simulator.stats();
  const { job, uid } = await harness.submit('video', videoRequest(), { attempts });
  const { state, job: done, generation } = await harness.settled('video', job);
  const after = harness.simulator.stats();
  const { logs } = await harness.queue('video').getJobLogs(job.id!);
  return {
    state,
    job: done,
    generation,
    logs,
    creates: after.requests['video.create'] - before.requests['video.create'],
    tasks: after.videoTasksCreated - before.videoTasksCreated,
    tokens: (await harness.balance(uid)).video,
  };
}

describe('starting a task', () => {
  it.each([1004, 2049])(
    "code %i (authentication, or a key on the other region's host) fails at once, the spec's message and MiniMax's code the operators'",
    async (code) => {
      const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code }]);
      expect(outcome.state).toBe('failed');
      expect(outcome.job.failedReason).toMatch(
        new RegExp(`^${ERROR_MESSAGES.VIDEO_AUTH_FAILED} \\(.+ \\(${code}\\)\\)$`),
      );
      expect(outcome.generation.providerError).toContain(`(${code})`);
      expect(outcome.generation.error).toEqual({
        code: 'VIDEO_AUTH_FAILED',
        message: 'Video generation is unavailable right now. Your token was returned.',
      });
      expect(outcome.creates).toBe(1);
      expect(outcome.tokens).toBe(1);
      expect(outcome.logs.some((line) => /minimax video_start: http_4xx/.test(line))).toBe(true);
    },
  );

  it.each([
    [1008, 'insufficient balance'],
    [2013, 'invalid params'],
  ])('code %i fails at once, saying why', async (code, why) => {
    const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code }]);
    expect(outcome.state).toBe('failed');
    expect(outcome.job.failedReason).toBe(`${ERROR_MESSAGES.VIDEO_START_FAILED}${why} (${code})`);
    expect(outcome.creates).toBe(1);
  });

  it.each([1026, 1027])(
    "code %i (sensitive content) fails with 'Video generation failed', the provider having refused the content",
    async (code) => {
      const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code }]);
      expect(outcome.state).toBe('failed');
      expect(outcome.job.failedReason).toBe(ERROR_MESSAGES.VIDEO_FAILED);
      expect(outcome.creates).toBe(1);
      expect(outcome.logs.some((line) => /minimax video_start: content_refused/.test(line))).toBe(true);
      // A refusal of the content is not free: otherwise borderline prompts would buy free paid calls.
      expect(outcome.tokens).toBe(0);
    },
  );

  it.each([1000, 1001, 1013])(
    'code %i means "retry later": the start is retried and the video completes',
    async (code) => {
      const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code, times: 1 }]);
      expect(outcome.state).toBe('completed');
      expect(outcome.job.attemptsMade).toBe(2);
      expect(outcome.tasks).toBe(1);
      // The refused start cost nothing: one paid call in the record, not two.
      expect(outcome.generation.paidCalls).toBe(1);
    },
  );

  it.each([1002, 1039, 1041, 2045])(
    'code %i (a rate, token, connection or growth limit) pauses the queue and starts again without using an attempt',
    async (code) => {
      const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code, times: 1 }], 1);
      expect(outcome.state).toBe('completed');
      expect(outcome.job.attemptsMade).toBe(1);
      expect(outcome.tasks).toBe(1);
      expect(
        outcome.logs.some((line) => new RegExp(`minimax rate limit \\(code ${code}\\): video queue paused`).test(line)),
      ).toBe(true);
    },
  );

  it.each([
    [2056, 'usage limit exceeded'],
    [1042, 'invisible character ratio limit'],
  ])('code %i fails at once, saying why, and gives the token back: no task was started', async (code, why) => {
    const outcome = await run([{ route: 'video.create', fault: 'minimax-code', code }]);
    expect(outcome.state).toBe('failed');
    expect(outcome.job.failedReason).toBe(`${ERROR_MESSAGES.VIDEO_START_FAILED}${why} (${code})`);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(outcome.tasks).toBe(0);
    expect(outcome.generation.token).toBe('refunded');
    expect(outcome.tokens).toBe(1);
  });

  it('a start with no answer is not retried into a second paid task: it fails, saying so', async () => {
    const outcome = await run([{ route: 'video.create', fault: 'hang', times: 1 }], 3);
    expect(outcome.state).toBe('failed');
    expect(outcome.job.failedReason).toMatch(
      new RegExp(
        `^${ERROR_MESSAGES.VIDEO_START_FAILED}no answer within 2 s; not retried, as MiniMax may have started a paid task$`,
      ),
    );
    expect(outcome.job.attemptsMade).toBe(1);
    expect(outcome.creates).toBe(1);
    expect(outcome.logs.some((line) => /minimax video_start: timeout/.test(line))).toBe(true);
    // The request was sent: MiniMax may be rendering it, so the token is spent.
    expect(outcome.generation.token).toBe('spent');
  });
});

describe('polling a task already paid for', () => {
  it('keeps polling through "retry later" codes and completes the same task', async () => {
    const outcome = await run([
      { route: 'video.query', fault: 'minimax-code', code: 1000, times: 1 },
      { route: 'video.query', fault: 'minimax-code', code: 1001, times: 1 },
      { route: 'video.query', fault: 'minimax-code', code: 1013, times: 1 },
    ]);
    expect(outcome.state).toBe('completed');
    expect(outcome.tasks).toBe(1);
    expect(outcome.job.attemptsMade).toBe(1);
  });

  it.each([1002, 1039, 1041, 2045])('waits out limit code %i and completes the same task', async (code) => {
    const outcome = await run([{ route: 'video.query', fault: 'minimax-code', code, times: 1 }], 1);
    expect(outcome.state).toBe('completed');
    expect(outcome.tasks).toBe(1);
    expect(outcome.job.attemptsMade).toBe(1);
  });

  it.each([2056, 1008])(
    'keeps polling through code %i (usage window, balance): the task is paid for, and it completes',
    async (code) => {
      const outcome = await run([{ route: 'video.query', fault: 'minimax-code', code, times: 2 }], 1);
      expect(outcome.state).toBe('completed');
      expect(outcome.tasks).toBe(1);
      expect(outcome.generation.token).toBe('spent');
    },
  );

  it("ends with 'Video generation failed' when the output is refused as sensitive (1027)", async () => {
    const outcome = await run([{ route: 'video.query', fault: 'minimax-code', code: 1027 }]);
    expect(outcome.state).toBe('failed');
    expect(outcome.job.failedReason).toBe(ERROR_MESSAGES.VIDEO_FAILED);
    expect(outcome.logs.some((line) => /minimax video_query: content_refused/.test(line))).toBe(true);
  });

  it("ends with 'Video generation failed: ' and the reason for a final code", async () => {
    const outcome = await run([{ route: 'video.query', fault: 'minimax-code', code: 2013 }]);
    expect(outcome.state).toBe('failed');
    expect(outcome.job.failedReason).toBe(`${ERROR_MESSAGES.VIDEO_POLL_FAILED}invalid params (2013)`);
  });

  it('asks for the file again after "retry later" codes, more times than the job has attempts', async () => {
    const outcome = await run([{ route: 'video.file', fault: 'minimax-code', code: 1013, times: 3 }], 1);
    expect(outcome.state).toBe('completed');
    expect(outcome.tasks).toBe(1);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(
      outcome.logs.filter((line) => /not fetched \(internal service error \(1013\)\); asking again/.test(line)),
    ).toHaveLength(3);
  });

  it('never loses a rendered video to the TPM limit (1039) of file retrieval: it waits, then fetches it', async () => {
    const outcome = await run([{ route: 'video.file', fault: 'minimax-code', code: 1039, times: 1 }], 1);
    expect(outcome.state).toBe('completed');
    expect(outcome.tasks).toBe(1);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(outcome.generation.artifact?.mimeType).toBe('video/mp4');
  });

  it('asks for the file again when its download breaks off, with a fresh link', async () => {
    const before = harness.simulator.stats().requests['video.file'];
    const outcome = await run([{ route: 'video.download', fault: 'drop', times: 2 }], 1);
    expect(outcome.state).toBe('completed');
    expect(outcome.job.attemptsMade).toBe(1);
    expect(harness.simulator.stats().requests['video.file'] - before).toBe(3);
  });
});

describe('the downloaded file', () => {
  it('is stored as the MP4 asked for, whatever content type the file host sends', async () => {
    const outcome = await run([{ route: 'video.download', fault: 'untyped-video' }]);
    expect(outcome.state).toBe('completed');
    expect(outcome.generation.artifact?.mimeType).toBe('video/mp4');
    const bytes = await harness.artifactBytes(outcome.generation);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('is refused when it is not an MP4, whatever the host calls it, and fetched again on the next attempt', async () => {
    const outcome = await run([{ route: 'video.download', fault: 'malformed', times: 1 }], 2);
    expect(outcome.state).toBe('completed');
    expect(outcome.job.attemptsMade).toBe(2);
    expect(outcome.tasks).toBe(1);
    expect(outcome.logs.some((line) => /the file is not an MP4 video/.test(line))).toBe(true);
  });
});
