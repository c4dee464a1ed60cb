import { OPENAI_VOICES } from './voices';

export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  speed: number;
  responseFormat: string;
}

/** The fields of an OpenAI invalid_request_error. */
export interface SpeechRequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

const MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'];
const RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const MAX_INPUT_LENGTH = 4096;
const SPEED_RANGE = { min: 0.25, max: 4 };

/** Checks a POST /v1/audio/speech body the way OpenAI does, with its messages and error codes. */
export function validateSpeechRequest(body: unknown): SpeechRequest | SpeechRequestProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      message: 'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.',
      param: null,
      code: null,
    };
  }
  const { model, input, voice, speed = 1, response_format: responseFormat = 'mp3' } = body as Record<string, unknown>;

  if (typeof model !== 'string') return missingOrNotString('model', model);
  if (typeof input !== 'string') return missingOrNotString('input', input);
  if (typeof voice !== 'string') return missingOrNotString('voice', voice);
  if (!MODELS.includes(model)) {
    return {
      message: `Invalid value for 'model' = ${model}. Supported: ${MODELS.join(', ')}.`,
      param: 'model',
      code: 'invalid_value',
    };
  }
  if (input.length === 0) {
    return {
      message: "Invalid 'input': empty string. Expected a string with minimum length 1.",
      param: 'input',
      code: 'string_below_min_length',
    };
  }
  if (input.length > MAX_INPUT_LENGTH) {
    return {
      message: `Invalid 'input': string too long. Expected a string with maximum length ${MAX_INPUT_LENGTH}, but got a string with length ${input.length} instead.`,
      param: 'input',
      code: 'string_above_max_length',
    };
  }
  if (!Object.hasOwn(OPENAI_VOICES, voice)) {
    return {
      message: `Invalid value: '${voice}'. Supported values are: ${Object.keys(OPENAI_VOICES)
        .map((name) => `'${name}'`)
        .join(', ')}.`,
      param: 'voice',
      code: 'invalid_value',
    };
  }
  if (typeof speed !== 'number' || !Number.isFinite(speed)) return invalidType('speed', speed, 'a decimal');
  if (speed < SPEED_RANGE.min) {
    return {
      message: `${speed} is less than the minimum of ${SPEED_RANGE.min} - 'speed'`,
      param: 'speed',
      code: 'decimal_below_min_value',
    };
  }
  if (speed > SPEED_RANGE.max) {
    return {
      message: `${speed} is greater than the maximum of ${SPEED_RANGE.max} - 'speed'`,
      param: 'speed',
      code: 'decimal_above_max_value',
    };
  }
  if (typeof responseFormat !== 'string' || !RESPONSE_FORMATS.includes(responseFormat)) {
    return {
      message: `Invalid value: '${String(responseFormat)}'. Supported values are: ${RESPONSE_FORMATS.map((name) => `'${name}'`).join(', ')}.`,
      param: 'response_format',
      code: 'invalid_value',
    };
  }
  return { model, input, voice, speed, responseFormat };
}

export function isSpeechRequestProblem(result: SpeechRequest | SpeechRequestProblem): result is SpeechRequestProblem {
  return 'message' in result;
}

function missingOrNotString(param: string, value: unknown): SpeechRequestProblem {
  if (value === undefined || value === null) {
    return { message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' };
  }
  return invalidType(param, value, 'a string');
}

function invalidType(param: string, value: unknown, expected: string): SpeechRequestProblem {
  return {
    message: `Invalid type for '${param}': expected ${expected}, but got ${typeof value} instead.`,
    param,
    code: 'invalid_type',
  };
}
