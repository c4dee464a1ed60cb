import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VOICES, type VoiceId } from '@mediagen/shared';
import { maxPartCharacters } from '../src/providers/realtime/reading-parts';
import { WorkerHarness, speechRequest } from './support/harness';

/**
 * Speech through the Realtime API (the default SPEECH_MODEL, gpt-realtime-2.1-mini) against the
 * simulator's Realtime stand-in over TLS: the worker reads the way the real API is read.
 */
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start();
  await harness.startWorkers({ kinds: ['speech'] });
});
afterAll(() => harness.stop());
beforeEach(() => harness.simulator.clearFaults());

/** What the simulator heard of the readings of one text (each test reads a text of its own). */
function responsesReading(text: string) {
  return harness.simulator
    .realtimeSessions()
    .flatMap((session) => session.responses.map((response) => ({ ...response, session })))
    .filter((response) => text.includes(response.text));
}

async function audioSeconds(bytes: Buffer, mimeType: string): Promise<number> {
  return (await parseBuffer(bytes, { mimeType })).format.duration ?? 0;
}

describe('speech through the Realtime API', () => {
  it("reads each of the spec's six voices with the Realtime voice shown to the creator", async () => {
    const voices: VoiceId[] = [...VOICES.female, ...VOICES.male].map((voice) => voice.id);
    const runs = await Promise.all(
      voices.map(async (voice) => {
        const text = `This is the voice called ${voice}, reading.`;
        const { job } = await harness.submit('speech', { ...speechRequest(text), voice });
        return { voice, text, settled: await harness.settled('speech', job) };
      }),
    );
    const heard: Record<string, string> = {};
    for (const { voice, text, settled } of runs) {
      expect(settled.state, settled.job.failedReason).toBe('completed');
      expect(settled.generation.artifact?.mimeType).toBe('audio/mpeg');
      const bytes = await harness.artifactBytes(settled.generation);
      expect(await audioSeconds(bytes, 'audio/mpeg')).toBeGreaterThan(0.5);
      heard[voice] = responsesReading(text)[0]!.session.voice;
    }
    expect(heard).toEqual({
      nova: 'coral',
      shimmer: 'shimmer',
      alloy: 'alloy',
      echo: 'echo',
      onyx: 'cedar',
      fable: 'ballad',
    });
  });

  it('tells the model the language, and asks for the speed and format the creator chose', async () => {
    const text = 'Bonjour, et bienvenue dans le service de génération.';
    const { job } = await harness.submit('speech', {
      ...speechRequest(text),
      language: 'fr-FR',
      speed: 1.25,
      format: 'wav',
    });
    const { state, generation } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    expect(generation.artifact?.mimeType).toBe('audio/wav');
    expect((await harness.artifactBytes(generation)).subarray(0, 4).toString('latin1')).toBe('RIFF');
    const [reading] = responsesReading(text);
    expect(reading!.session).toMatchObject({ model: 'gpt-realtime-2.1-mini', speed: 1.25 });
    expect(reading!.instructions).toContain('French (fr-FR)');
    expect(reading!.transcript).toBe(text);
  });

  it('reads a text that looks like a question instead of answering it', async () => {
    const text = 'What is your name?';
    const { job } = await harness.submit('speech', speechRequest(text));
    const { state } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    const [reading] = responsesReading(text);
    expect(reading!.transcript).toBe(text);
  });

  it('reads a long text in parts within the output limit, and joins them in order', async () => {
    const sentences = Array.from(
      { length: 60 },
      (_, index) => `Sentence number ${index + 1} tells a small part of a long story.`,
    );
    const text = sentences.join(' ');
    const { job } = await harness.submit('speech', speechRequest(text));
    const { state, generation } = await harness.settled('speech', job, 60_000);
    expect(state).toBe('completed');
    const parts = responsesReading(text);
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil(text.length / maxPartCharacters('en-US')));
    expect(parts.every((part) => part.text.length <= maxPartCharacters('en-US'))).toBe(true);
    // One session, its parts in order, every sentence read once.
    expect(new Set(parts.map((part) => part.session.id)).size).toBe(1);
    expect(parts.map((part) => part.text).join(' ')).toBe(text);
    const heard = parts.reduce((sum, part) => sum + part.audioSeconds, 0);
    const stored = await audioSeconds(await harness.artifactBytes(generation), 'audio/mpeg');
    expect(stored).toBeGreaterThanOrEqual(heard * 0.95);
  });
});

describe('a reading that strays from the text', () => {
  it('is read again once, and the second reading is kept', async () => {
    const text = 'A reading that goes astray the first time.';
    harness.simulator.injectFault({ route: 'realtime.response', fault: 'stray', times: 1 });
    const { job, uid } = await harness.submit('speech', speechRequest(text));
    const { state } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    expect(responsesReading(text).map((response) => response.transcript === text)).toEqual([false, true]);
    expect((await harness.balance(uid)).speech).toBe(1);
  });

  it('fails the generation after a second stray reading, with its token returned and its cost recorded', async () => {
    const text = 'A reading that goes astray twice in a row.';
    harness.simulator.injectFault({ route: 'realtime.response', fault: 'stray', times: 2 });
    const { job, uid } = await harness.submit('speech', speechRequest(text), { attempts: 3 });
    const { state, job: done, generation } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    // Not retried as a job: a third reading would most likely stray too, at our cost.
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toBe(
      'Failed to generate speech: the voice did not read your text as written. Your token was returned.',
    );
    expect(generation).toMatchObject({ token: 'refunded', error: { code: 'SPEECH_FAILED' } });
    expect((await harness.balance(uid)).speech).toBe(2);
    expect(responsesReading(text)).toHaveLength(2);
    // The provider was paid for both readings: budgets count them even though the creator does not pay
    // (recorded as the run ends, just after its failure).
    await expect.poll(() => harness.costOf(job.id!), { timeout: 5000 }).toBeGreaterThan(0);
    const { logs } = await harness.queue('speech').getJobLogs(job.id!);
    expect(logs.filter((line) => /strayed from the text/.test(line))).toHaveLength(2);
  });

  it('treats an answer given in place of the reading as a reading that strays', async () => {
    const text = 'Please read this sentence aloud exactly.';
    harness.simulator.injectFault({ route: 'realtime.response', fault: 'answer', times: 2 });
    const { job, uid } = await harness.submit('speech', speechRequest(text));
    const { state, generation } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    expect(generation.token).toBe('refunded');
    expect((await harness.balance(uid)).speech).toBe(2);
  });
});

describe('the connection and the account', () => {
  it('connects again after a connection dropped mid-response and reads the part it lost', async () => {
    const text = 'A connection that drops in the middle of this reading.';
    harness.simulator.injectFault({ route: 'realtime.response', fault: 'drop', times: 1 });
    const connectsBefore = harness.simulator.stats().requests['realtime.connect'];
    const { job } = await harness.submit('speech', speechRequest(text));
    const { state, job: done } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    expect(done.attemptsMade).toBe(1);
    expect(harness.simulator.stats().requests['realtime.connect'] - connectsBefore).toBe(2);
    const { logs } = await harness.queue('speech').getJobLogs(job.id!);
    expect(logs.some((line) => /connection lost in part 1\/1/.test(line))).toBe(true);
  });

  it('holds the speech queue back for a rate limit, without using an attempt, and reads once it lifts', async () => {
    const text = 'A reading that meets a rate limit first.';
    harness.simulator.injectFault({
      route: 'realtime.response',
      fault: 'rate-limit',
      times: 1,
      retryAfterSeconds: 1,
    });
    const { job, uid } = await harness.submit('speech', speechRequest(text));
    const { state, job: done } = await harness.settled('speech', job);
    expect(state).toBe('completed');
    expect(done.attemptsMade).toBe(1);
    const { logs } = await harness.queue('speech').getJobLogs(job.id!);
    expect(logs.some((line) => /openai rate limit .*speech queue paused/.test(line))).toBe(true);
    expect((await harness.balance(uid)).speech).toBe(1);
  });

  it('fails at once, token returned, when the account has no credit', async () => {
    harness.simulator.injectFault({ route: 'realtime.response', fault: 'insufficient-quota', times: 1 });
    const { job, uid } = await harness.submit('speech', speechRequest('No credit left for this one.'));
    const { state, job: done } = await harness.settled('speech', job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toMatch(
      /^Failed to generate speech: OpenAI billing refused the call \(insufficient_quota: /,
    );
    expect((await harness.balance(uid)).speech).toBe(2);
  });
});
