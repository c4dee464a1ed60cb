import { describe, expect, it } from 'vitest';
import { planAudioResponse, planTextResponse, type PlannedDelta } from './responsePlan';

const BYTES_PER_SECOND = 48_000;

/** Audio of `seconds`, each byte its position, so the deltas can be checked to add up. */
function audioOf(seconds: number) {
  const bytes = Buffer.alloc(seconds * BYTES_PER_SECOND);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
  return { bytes, bytesPerSecond: BYTES_PER_SECOND };
}

const audioDeltas = (deltas: PlannedDelta[]) => deltas.filter((delta) => delta.kind === 'audio');
const transcriptOf = (deltas: PlannedDelta[]) =>
  deltas.map((delta) => (delta.kind === 'audio' ? '' : delta.text)).join('');

describe('planAudioResponse', () => {
  it('cuts the audio into 100 ms deltas and the transcript into words, both adding up', () => {
    const audio = audioOf(2);
    const plan = planAudioResponse('one two three four', audio, 'inf');
    expect(audioDeltas(plan.deltas)).toHaveLength(20);
    expect(audioDeltas(plan.deltas).every((delta) => delta.bytes.length === 4800)).toBe(true);
    expect(Buffer.concat(audioDeltas(plan.deltas).map((delta) => delta.bytes)).equals(audio.bytes)).toBe(true);
    expect(transcriptOf(plan.deltas)).toBe('one two three four');
    expect(plan).toMatchObject({
      transcript: 'one two three four',
      audioSeconds: 2,
      audioTokens: 40,
      textTokens: 5,
      cutShort: false,
    });
  });

  it('places each word before the audio it starts in', () => {
    const plan = planAudioResponse('aaaa bbbb', audioOf(1), 'inf');
    const kinds = plan.deltas.map((delta) => (delta.kind === 'audio' ? `audio@${delta.startSeconds}` : delta.text));
    // " bbbb" starts at character 4 of 9: in the fifth 100 ms of the second.
    expect(kinds.slice(0, 6)).toEqual(['aaaa', 'audio@0', 'audio@0.1', 'audio@0.2', 'audio@0.3', ' bbbb']);
  });

  it('stops before the delta that would go over max_output_tokens', () => {
    const plan = planAudioResponse('one two three four', audioOf(2), 12);
    expect(plan.cutShort).toBe(true);
    expect(plan.textTokens + plan.audioTokens).toBeLessThanOrEqual(12);
    expect('one two three four'.startsWith(plan.transcript)).toBe(true);
    expect(plan.audioSeconds).toBeCloseTo(audioDeltas(plan.deltas).length * 0.1, 10);
  });

  it('takes inf as the model maximum of 4,096 tokens', () => {
    const plan = planAudioResponse('word '.repeat(1000).trim(), audioOf(300), 'inf');
    expect(plan.cutShort).toBe(true);
    expect(plan.textTokens + plan.audioTokens).toBeLessThanOrEqual(4096);
    expect(plan.textTokens + plan.audioTokens).toBeGreaterThan(4090);
  });
});

describe('planTextResponse', () => {
  it('writes a word a delta within the budget', () => {
    expect(planTextResponse('one two three', 'inf')).toMatchObject({
      transcript: 'one two three',
      textTokens: 4,
      cutShort: false,
    });
    expect(planTextResponse('one two three four five six', 2)).toMatchObject({ transcript: 'one two', cutShort: true });
  });
});
