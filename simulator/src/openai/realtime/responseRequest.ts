import { parseInputItem, type InputItem } from './conversation';
import { isRealtimeProblem, problems, type RealtimeProblem } from './realtimeErrors';
import type { MaxOutputTokens, OutputModality, RealtimeAudioFormat, RealtimeSessionObject } from './realtimeEvents';
import {
  applyField,
  checkAudioFormat,
  checkMaxOutputTokens,
  checkOutputModalities,
  checkString,
  checkVoice,
  isObject,
  unknownField,
} from './realtimeParams';
import type { RealtimeVoice } from './realtimeVoices';

/** What one response is asked for: response.create's parameters over the session's configuration. */
export interface ResponseRequest {
  /** `none`: an out-of-band response, kept out of the default conversation. */
  conversation: 'auto' | 'none';
  /** Its own context instead of the default conversation, when given. */
  input: InputItem[] | undefined;
  /** The instructions in force: the response's, else the session's. */
  instructions: string;
  outputModalities: OutputModality[];
  maxOutputTokens: MaxOutputTokens;
  format: RealtimeAudioFormat;
  voice: RealtimeVoice;
  speed: number;
  metadata: Record<string, string> | null;
}

// RealtimeResponseCreateParams' fields, and those of its `audio` part.
const RESPONSE_FIELDS = [
  'audio',
  'conversation',
  'input',
  'instructions',
  'max_output_tokens',
  'metadata',
  'output_modalities',
  'parallel_tool_calls',
  'prompt',
  'reasoning',
  'tool_choice',
  'tools',
];
const METADATA_LIMITS = { keys: 16, keyLength: 64, valueLength: 512 } as const;

/** response.create's `response` (optional) checked and merged over the session, or the problem refusing it. */
export function parseResponseRequest(
  params: unknown,
  session: RealtimeSessionObject,
): ResponseRequest | RealtimeProblem {
  const request: ResponseRequest = {
    conversation: 'auto',
    input: undefined,
    instructions: session.instructions,
    outputModalities: session.output_modalities,
    maxOutputTokens: session.max_output_tokens,
    format: session.audio.output.format,
    voice: session.audio.output.voice,
    speed: session.audio.output.speed,
    metadata: null,
  };
  if (params === undefined) return request;
  if (!isObject(params)) return problems.invalidType('response', params, 'an object');
  const unknown = unknownField(params, RESPONSE_FIELDS, 'response');
  if (unknown) return unknown;

  const { conversation, input, instructions, output_modalities, max_output_tokens, metadata, audio } = params;
  if (conversation !== undefined) {
    if (conversation !== 'auto' && conversation !== 'none') {
      return problems.invalidValue('response.conversation', conversation, ['auto', 'none']);
    }
    request.conversation = conversation;
  }
  if (input !== undefined) {
    if (!Array.isArray(input)) return problems.invalidType('response.input', input, 'an array');
    const items: InputItem[] = [];
    for (const [index, item] of input.entries()) {
      const parsed = parseInputItem(item, `response.input[${index}]`);
      if (isRealtimeProblem(parsed)) return parsed;
      items.push(parsed);
    }
    request.input = items;
  }
  const problem =
    applyField(instructions, 'response.instructions', checkString, (value) => {
      request.instructions = value;
    }) ??
    applyField(output_modalities, 'response.output_modalities', checkOutputModalities, (value) => {
      request.outputModalities = value;
    }) ??
    applyField(max_output_tokens, 'response.max_output_tokens', checkMaxOutputTokens, (value) => {
      request.maxOutputTokens = value;
    }) ??
    applyField(metadata, 'response.metadata', checkMetadata, (value) => {
      request.metadata = value;
    }) ??
    applyField(audio, 'response.audio', checkAudioOutput, (value) => {
      if (value.format !== undefined) request.format = value.format;
      if (value.voice !== undefined) request.voice = value.voice;
    });
  return problem ?? request;
}

/** `response.audio`: an output format and voice for this response only. */
function checkAudioOutput(
  audio: unknown,
  param: string,
): { format?: RealtimeAudioFormat; voice?: RealtimeVoice } | RealtimeProblem {
  if (!isObject(audio)) return problems.invalidType(param, audio, 'an object');
  const unknown = unknownField(audio, ['output'], param);
  if (unknown) return unknown;
  const { output } = audio;
  if (output === undefined) return {};
  if (!isObject(output)) return problems.invalidType(`${param}.output`, output, 'an object');
  const unknownOutput = unknownField(output, ['format', 'voice'], `${param}.output`);
  if (unknownOutput) return unknownOutput;
  const chosen: { format?: RealtimeAudioFormat; voice?: RealtimeVoice } = {};
  const problem =
    applyField(output.format, `${param}.output.format`, checkAudioFormat, (format) => {
      chosen.format = format;
    }) ??
    applyField(output.voice, `${param}.output.voice`, checkVoice, (voice) => {
      chosen.voice = voice;
    });
  return problem ?? chosen;
}
/** "Set of 16 key-value pairs … Keys … a maximum length of 64 characters. Values … 512 characters." */
function checkMetadata(value: unknown, param: string): Record<string, string> | null | RealtimeProblem {
  if (value === null) return null;
  if (!isObject(value)) return problems.invalidType(param, value, 'an object');
  const entries = Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys) {
    return {
      message: `Invalid 'response.metadata': too many properties. Expected an object with at most ${METADATA_LIMITS.keys} properties, but got an object with ${entries.length} properties instead.`,
      param,
      code: 'object_above_max_properties',
    };
  }
  for (const [key, field] of entries) {
    const fieldParam = `${param}.${key}`;
    if (typeof field !== 'string') return problems.invalidType(fieldParam, field, 'a string');
    if (key.length > METADATA_LIMITS.keyLength || field.length > METADATA_LIMITS.valueLength) {
      return {
        message: `Invalid '${fieldParam}': metadata keys are at most ${METADATA_LIMITS.keyLength} characters and values at most ${METADATA_LIMITS.valueLength}.`,
        param: fieldParam,
        code: 'string_above_max_length',
      };
    }
  }
  return value as Record<string, string>;
}
