import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { SPEECH_DEFAULTS } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { neverConnected } from './http';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

export interface OpenAISpeechConfig {
  baseUrl: string;
  apiKey: string;
  /** Spec §9: the provider client's defaults are 2 retries and a 10 minute timeout. */
  timeoutMs?: number;
  maxRetries?: number;
}

export interface SpeechInput {
  input: string;
  voice: string;
  speed: number;
}

/**
 * `insufficient_quota` is the documented code; OpenAI's newer billing codes say the same more precisely
 * (no prepaid credit, a spend or usage limit reached).
 */
const OUT_OF_CREDIT_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'organization_usage_limit_exceeded',
]);
const OUT_OF_CREDIT_MESSAGE = 'Failed to generate speech: the speech provider account has no credit left';

function isOutOfCredit(error: APIError): boolean {
  return OUT_OF_CREDIT_CODES.has(error.code ?? '') || OUT_OF_CREDIT_CODES.has(error.type ?? '');
}

/**
 * Text to speech through the official `openai` client. It retries 408, 409, 429 and 5xx itself (spec §9),
 * so one call here may be several HTTP requests; a 429 that survives those retries pauses the queue.
 */
export class OpenAISpeechClient {
  private readonly client: OpenAI;

  constructor(config: OpenAISpeechConfig) {
    this.client = new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseUrl,
      timeout: config.timeoutMs ?? 10 * 60_000,
      maxRetries: config.maxRetries ?? 2,
    });
  }

  async synthesize(speech: SpeechInput, signal?: AbortSignal): Promise<{ bytes: Uint8Array; mimeType: string }> {
    try {
      const response = await this.client.audio.speech.create(
        {
          model: SPEECH_DEFAULTS.model,
          voice: speech.voice,
          input: speech.input,
          speed: speech.speed,
          response_format: SPEECH_DEFAULTS.responseFormat,
        },
        signal === undefined ? {} : { signal },
      );
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.byteLength === 0) throw GenerationError.of('SPEECH_FAILED', { retryable: true, outcome: 'malformed' });
      return { bytes, mimeType: response.headers.get('content-type') ?? 'audio/mpeg' };
    } catch (error) {
      // Canceled, past its deadline or handed back at shutdown: the reason is the job's answer.
      if (signal?.aborted) throw signal.reason;
      if (error instanceof GenerationError) throw error;
      if (error instanceof APIConnectionTimeoutError) {
        throw GenerationError.of('SPEECH_FAILED', { retryable: true, outcome: 'timeout' });
      }
      if (error instanceof APIConnectionError) {
        throw GenerationError.of('SPEECH_FAILED', {
          retryable: true,
          outcome: neverConnected(error) ? 'unreachable' : 'network',
        });
      }
      // Same status as a rate limit, but waiting does not help: the account has no credit left
      // (https://platform.openai.com/docs/guides/error-codes/api-errors). Fails now, token refunded.
      if (error instanceof APIError && error.status === 429 && isOutOfCredit(error)) {
        throw new GenerationError('SPEECH_FAILED', OUT_OF_CREDIT_MESSAGE, false, 'http_429');
      }
      if (error instanceof APIError && error.status === 429) {
        throw new ProviderBusyError(
          'openai',
          'rate_limited',
          parseRetryAfter(error.headers?.get('retry-after')),
          'HTTP 429',
        );
      }
      // Spec §8: 'Failed to generate speech' or the error's own message.
      if (error instanceof APIError) {
        const message = (error.error as { message?: string } | undefined)?.message ?? error.message;
        const status = error.status ?? 500;
        throw new GenerationError(
          'SPEECH_FAILED',
          message || 'Failed to generate speech',
          isRetryableStatus(status),
          outcomeOfStatus(status),
        );
      }
      throw GenerationError.of('SPEECH_FAILED', { retryable: true, outcome: 'malformed' });
    }
  }
}
