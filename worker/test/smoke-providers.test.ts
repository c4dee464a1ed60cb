import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '@mediagen/simulator';

/**
 * `pnpm smoke:providers` itself, run as a release check would run it: with no key it calls nothing; with
 * keys it generates one of each. Here the keys are fake and the hosts are the simulator's, so the
 * script's whole path runs without spending credit.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let simulator: Simulator;
let workDir: string;
/** The simulator's certificate, trusted by the script the standard way (NODE_EXTRA_CA_CERTS). */
let trusted: Record<string, string>;

beforeAll(async () => {
  simulator = createSimulator({ videoQueueingMs: 100, videoProcessingMs: 100 });
  await simulator.listen();
  // Its own working directory, so a developer's .env (with real keys) is never read here.
  workDir = await mkdtemp(join(tmpdir(), 'mediagen-smoke-test-'));
  const certificateFile = join(workDir, 'simulator.pem');
  await writeFile(certificateFile, simulator.certificate);
  // Speech goes to the Realtime API, which the simulator serves over TLS only.
  trusted = { NODE_EXTRA_CA_CERTS: certificateFile, OPENAI_BASE_URL: `${simulator.secureUrl}/v1` };
});
afterAll(async () => {
  await simulator.close();
  await rm(workDir, { recursive: true, force: true });
});

function smoke(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'worker/scripts/smoke-providers.ts')], {
    cwd: workDir,
    env: { PATH: process.env.PATH, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close': once everything it printed has been read, which may come after its exit.
  return new Promise((done) => child.once('close', (code) => done({ code, output })));
}

it('calls nothing and succeeds when no provider key is set', async () => {
  const before = simulator.stats().requests;
  const { code, output } = await smoke({ SIMULATOR_URL: simulator.url });
  expect(code, output).toBe(0);
  expect(output).toContain('skipped image: STABILITY_API_KEY is not set');
  expect(output).toContain('no provider key set: nothing called');
  expect(simulator.stats().requests).toEqual(before);
});

it('generates one image, one video and one speech with their timings when the keys are set', async () => {
  const outputDir = join(workDir, 'out');
  const { code, output } = await smoke({
    STABILITY_API_KEY: 'sk-smoke-test',
    STABILITY_API_BASE: simulator.url,
    MINIMAX_API_KEY: 'mm-smoke-test',
    MINIMAX_API_BASE: `${simulator.url}/v1`,
    OPENAI_API_KEY: 'sk-smoke-test',
    ...trusted,
    VIDEO_POLL_INTERVAL_MS: '50',
    SMOKE_4K: '1',
    SMOKE_OUTPUT_DIR: outputDir,
  });
  expect(code, output).toBe(0);
  for (const step of [
    'text-to-image stable-diffusion-xl-1024-v1-0 1024x1024',
    'v2beta generate/core 16:9',
    'v2beta upscale/fast',
    'start T2V-01 at',
    'T2V-01: poll until done',
    'T2V-01: retrieve file',
    'T2V-01: download',
    'start MiniMax-Hailuo-2.3 768P 6s at',
    'MiniMax-Hailuo-2.3: poll until done',
    'MiniMax-Hailuo-2.3: download',
    'speech gpt-realtime-2.1-mini nova \\(read by coral\\): sentence',
    'speech gpt-realtime-2.1-mini nova \\(read by coral\\): question',
  ]) {
    expect(output).toMatch(new RegExp(`\\| [a-z]+ \\| ${step}[^|]*\\| \\d+ \\|`));
  }
  expect((await readdir(outputDir)).sort()).toEqual([
    'image-4k.png',
    'image-core.png',
    'image.png',
    'speech-question.mp3',
    'speech-sentence.mp3',
    'video-hailuo.mp4',
    'video.mp4',
  ]);
  // Each plan's API as the workers send it: Pro's image on v2beta Core at its shape, its video on Hailuo.
  expect(simulator.stableImageRequests().map((request) => [request.endpoint, request.aspect_ratio])).toEqual([
    ['generate/core', '16:9'],
    ['upscale/fast', undefined],
  ]);
  expect(simulator.videoTasks().map((task) => [task.model, task.resolution, task.duration])).toEqual([
    ['T2V-01', undefined, undefined],
    ['MiniMax-Hailuo-2.3', '768P', 6],
  ]);
  // The question was read, not answered.
  const question = simulator
    .realtimeSessions()
    .flatMap((session) => session.responses)
    .find((response) => response.text === 'What is your name?');
  expect(question?.transcript).toBe('What is your name?');
});

it('fails, saying which step, when a provider refuses', async () => {
  simulator.injectFault({ route: 'realtime.response', fault: 'insufficient-quota' });
  const { code, output } = await smoke({
    OPENAI_API_KEY: 'sk-smoke-test',
    ...trusted,
    SMOKE_OUTPUT_DIR: join(workDir, 'refused'),
  });
  simulator.clearFaults();
  expect(code).toBe(1);
  expect(output).toMatch(
    /\| openai \| speech gpt-realtime-2.1-mini nova \(read by coral\): sentence \| \d+ \| FAILED: Failed to generate speech: OpenAI billing refused the call \(insufficient_quota: .+\) \|/,
  );
});
