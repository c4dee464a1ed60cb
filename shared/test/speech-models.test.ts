import { describe, expect, it } from 'vitest';
import { SPEECH_MODELS, VOICES, genderOfVoice, isRetired, voiceUsed, type VoiceId } from '../src';

const REALTIME_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'];
const REALTIME_FEMALE = new Set(['alloy', 'coral', 'sage', 'shimmer', 'marin']);
const SPEC_VOICES: VoiceId[] = [...VOICES.female, ...VOICES.male].map((voice) => voice.id);

describe('speech models', () => {
  it('reads every spec voice with a voice the Realtime models have, in the same group', () => {
    for (const voice of SPEC_VOICES) {
      const used = voiceUsed('gpt-realtime-2.1-mini', voice);
      expect(REALTIME_VOICES).toContain(used);
      expect(REALTIME_FEMALE.has(used) ? 'female' : 'male').toBe(genderOfVoice(voice));
    }
    expect(SPEC_VOICES.map((voice) => voiceUsed('gpt-realtime-2.1-mini', voice))).toEqual([
      'coral',
      'shimmer',
      'alloy',
      'echo',
      'cedar',
      'ballad',
    ]);
  });

  it('keeps the spec voices as they are on the speech endpoint', () => {
    for (const voice of SPEC_VOICES) expect(voiceUsed('tts-1', voice)).toBe(voice);
  });

  it("knows the speech endpoint's models are shut down from 2027-01-06 (UTC), and the Realtime ones are not", () => {
    const endpointModels = Object.entries(SPEECH_MODELS).filter(([, rules]) => rules.api === 'speech-endpoint');
    expect(endpointModels.map(([model]) => model)).toEqual(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
    expect(isRetired('tts-1', Date.parse('2027-01-05T23:59:59Z'))).toBe(false);
    expect(isRetired('tts-1', Date.parse('2027-01-06T00:00:00Z'))).toBe(true);
    expect(isRetired('gpt-4o-mini-tts', Date.parse('2027-03-01T00:00:00Z'))).toBe(true);
    expect(isRetired('gpt-realtime-2.1-mini', Date.parse('2030-01-01T00:00:00Z'))).toBe(false);
  });
});
