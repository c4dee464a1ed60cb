import { isRealtimeProblem, problems, type RealtimeProblem } from './realtimeErrors';
import type { MaxOutputTokens, OutputModality, RealtimeAudioFormat } from './realtimeEvents';
import { REALTIME_VOICE_NAMES, isRealtimeVoice, type RealtimeVoice } from './realtimeVoices';

/**
 * Checks of the fields session.update and response.create share, with the limits the API reference
 * gives (RealtimeAudioConfigOutput, RealtimeAudioFormats, RealtimeResponseCreateParams). Each returns
 * the value, or the problem an `error` event reports with `param` naming the field.
 */

/** "0.25 is the minimum speed. 1.5 is the maximum speed." */
export const SPEED_RANGE = { min: 0.25, max: 1.5 } as const;
/** "Provide an integer between 1 and 4096 to limit output tokens, or `inf`." */
export const MAX_OUTPUT_TOKENS_RANGE = { min: 1, max: 4096 } as const;
const FORMAT_TYPES = ['audio/pcm', 'audio/pcmu', 'audio/pcma'] as const;
const PCM_RATE = 24_000;
const MODALITIES = ['text', 'audio'] as const;

export type Checked<T> = T | RealtimeProblem;

/** Checks a field that was sent and stores it; a field that was not sent is left as it is. */
export function applyField<T>(
  value: unknown,
  param: string,
  check: (value: unknown, param: string) => Checked<T>,
  store: (value: T) => void,
): RealtimeProblem | undefined {
  if (value === undefined) return undefined;
  const checked = check(value, param);
  if (isRealtimeProblem(checked)) return checked;
  store(checked);
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field the API does not know is refused, so a misspelt or beta-only field is noticed, not ignored. */
export function unknownField(value: Record<string, unknown>, known: readonly string[], param: string) {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  return unknown === undefined ? undefined : problems.unknownParameter(`${param}.${unknown}`);
}

export function checkVoice(value: unknown, param: string): Checked<RealtimeVoice> {
  if (isRealtimeVoice(value)) return value;
  if (typeof value !== 'string') return problems.invalidType(param, value, 'a string');
  return problems.invalidValue(param, value, REALTIME_VOICE_NAMES);
}

export function checkSpeed(value: unknown, param: string): Checked<number> {
  if (typeof value !== 'number' || !Number.isFinite(value)) return problems.invalidType(param, value, 'a decimal');
  if (value < SPEED_RANGE.min || value > SPEED_RANGE.max) {
    return problems.outOfRange(param, value, SPEED_RANGE.min, SPEED_RANGE.max);
  }
  return value;
}

export function checkAudioFormat(value: unknown, param: string): Checked<RealtimeAudioFormat> {
  if (!isObject(value)) return problems.invalidType(param, value, 'an object');
  const { type, rate } = value;
  if (type === 'audio/pcm') {
    if (rate !== undefined && rate !== PCM_RATE) return problems.invalidValue(`${param}.rate`, rate, [PCM_RATE]);
    return { type, rate: PCM_RATE };
  }
  if (type === 'audio/pcmu' || type === 'audio/pcma') return { type };
  if (type === undefined) return problems.missing(`${param}.type`);
  return problems.invalidValue(`${param}.type`, type, FORMAT_TYPES);
}

/** `["audio"]` or `["text"]`: "It is not possible to request both `text` and `audio` at the same time." */
export function checkOutputModalities(value: unknown, param: string): Checked<OutputModality[]> {
  if (!Array.isArray(value)) return problems.invalidType(param, value, 'an array');
  const unknown = value.find((modality) => !(MODALITIES as readonly unknown[]).includes(modality));
  if (unknown !== undefined) return problems.invalidValue(param, unknown, MODALITIES);
  const modalities = [...new Set(value as OutputModality[])];
  if (modalities.length !== 1) {
    return {
      message: `Invalid modalities: ${JSON.stringify(value)}. Supported combinations are: ["text"] and ["audio"].`,
      param,
      code: 'invalid_value',
    };
  }
  return modalities;
}

export function checkMaxOutputTokens(value: unknown, param: string): Checked<MaxOutputTokens> {
  if (value === 'inf') return value;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return problems.invalidType(param, value, "an integer or 'inf'");
  }
  if (value < MAX_OUTPUT_TOKENS_RANGE.min || value > MAX_OUTPUT_TOKENS_RANGE.max) {
    return problems.outOfRange(param, value, MAX_OUTPUT_TOKENS_RANGE.min, MAX_OUTPUT_TOKENS_RANGE.max);
  }
  return value;
}

export function checkString(value: unknown, param: string): Checked<string> {
  return typeof value === 'string' ? value : problems.invalidType(param, value, 'a string');
}
