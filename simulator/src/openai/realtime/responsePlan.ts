import type { MaxOutputTokens } from './realtimeEvents';
import type { RealtimeAudio } from './realtimeAudio';

/**
 * A response's output cut into the deltas it streams, within its output token budget. Tokens as the
 * simulator counts them: text ≈ one per 4 characters; audio 20 per second (one per 50 ms).
 */

/** `inf` means the model's maximum: 4,096 output tokens for the realtime models. */
export const MODEL_MAX_OUTPUT_TOKENS = 4096;
const AUDIO_TOKENS_PER_SECOND = 20;
const CHARACTERS_PER_TEXT_TOKEN = 4;
const DELTA_SECONDS = 0.1;

export type PlannedDelta =
  | { kind: 'audio'; bytes: Buffer; startSeconds: number }
  | { kind: 'transcript'; text: string }
  | { kind: 'text'; text: string };

export interface ResponsePlan {
  deltas: PlannedDelta[];
  /** What it will have said (or written) once every delta is sent. */
  transcript: string;
  audioSeconds: number;
  textTokens: number;
  audioTokens: number;
  /** The budget ran out before the end: the response ends `incomplete`. */
  cutShort: boolean;
}

export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TEXT_TOKEN);
}

/** Counted from bytes, in integers, so 300 ms is 6 tokens and not 7 by floating-point error. */
export function audioTokens(bytes: number, bytesPerSecond: number): number {
  return Math.ceil((bytes * AUDIO_TOKENS_PER_SECOND) / bytesPerSecond);
}

export function tokenBudget(maxOutputTokens: MaxOutputTokens): number {
  return maxOutputTokens === 'inf' ? MODEL_MAX_OUTPUT_TOKENS : maxOutputTokens;
}

/**
 * At most this many characters can fit in a budget (each costs at least half a token of text and
 * speech), so longer text is cut before it is spoken and never costs its full synthesis.
 */
export function speakableLength(maxOutputTokens: MaxOutputTokens): number {
  return tokenBudget(maxOutputTokens) * 2;
}

/** Text output: a delta a word, until the budget runs out. */
export function planTextResponse(text: string, maxOutputTokens: MaxOutputTokens): ResponsePlan {
  const budget = tokenBudget(maxOutputTokens);
  const deltas: PlannedDelta[] = [];
  let written = '';
  for (const word of wordsOf(text)) {
    if (textTokens(written + word) > budget) return planned(deltas, written, 0, 1, true);
    written += word;
    deltas.push({ kind: 'text', text: word });
  }
  return planned(deltas, written, 0, 1, false);
}

/**
 * Audio output: ~100 ms of audio a delta, each preceded by the transcript words that start before it
 * ends (words placed in proportion to their position in the transcript), until the budget runs out.
 */
export function planAudioResponse(
  transcript: string,
  audio: RealtimeAudio,
  maxOutputTokens: MaxOutputTokens,
): ResponsePlan {
  const budget = tokenBudget(maxOutputTokens);
  const words = wordsOf(transcript);
  const deltaBytes = Math.max(1, Math.round(audio.bytesPerSecond * DELTA_SECONDS));
  const deltas: PlannedDelta[] = [];
  const tokensOf = (text: string, bytes: number) => textTokens(text) + audioTokens(bytes, audio.bytesPerSecond);
  let said = '';
  let sentBytes = 0;
  let nextWord = 0;
  let wordStart = 0;

  const cut = () => planned(deltas, said, sentBytes, audio.bytesPerSecond, true);
  for (let start = 0; start < audio.bytes.length || nextWord < words.length; start += deltaBytes) {
    const end = Math.min(audio.bytes.length, start + deltaBytes);
    const spokenFraction = audio.bytes.length === 0 ? 1 : end / audio.bytes.length;
    while (nextWord < words.length && wordStart / transcript.length < spokenFraction) {
      const word = words[nextWord]!;
      if (tokensOf(said + word, sentBytes) > budget) return cut();
      said += word;
      wordStart += word.length;
      nextWord += 1;
      deltas.push({ kind: 'transcript', text: word });
    }
    if (end <= start) continue;
    if (tokensOf(said, end) > budget) return cut();
    deltas.push({ kind: 'audio', bytes: audio.bytes.subarray(start, end), startSeconds: start / audio.bytesPerSecond });
    sentBytes = end;
  }
  return planned(deltas, said, sentBytes, audio.bytesPerSecond, false);
}

/** A word with the whitespace before it, so the deltas add up to the text. */
function wordsOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

function planned(
  deltas: PlannedDelta[],
  transcript: string,
  audioBytes: number,
  bytesPerSecond: number,
  cutShort: boolean,
): ResponsePlan {
  return {
    deltas,
    transcript,
    audioSeconds: audioBytes / bytesPerSecond,
    textTokens: textTokens(transcript),
    audioTokens: audioTokens(audioBytes, bytesPerSecond),
    cutShort,
  };
}
