import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ERROR_MESSAGES, voiceUsed } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { neverConnected } from './http';
import {
  billingRefused,
  describeOpenAIAnswer,
  isBillingRefusal,
  noRetryOnBillingRefusal,
  type OpenAIAnswer,
} from './openai-billing';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';
import type { SpeechAudio, SpeechInput, SpeechSynthesizer } from './speech-synthesizer';

export interface OpenAISpeechConfig {
  baseUrl: string;
  apiKey: string;
  /** Spec §9: the provider client's defaults are 2 retries and a 10 minute timeout. */
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * Text to speech on `POST /v1/audio/speech` (tts-1, tts-1-hd, gpt-4o-mini-tts until OpenAI shuts them down
 * on 2027-01-06), through the official `openai` client. It retries 408, 409, 429 and 5xx itself (spec §9),
 * so one call here may be several HTTP requests; a 429 that survives those retries pauses the queue. A
 * billing refusal is not retried (openai-billing.ts).
 */
export class OpenAISpeechClient implements SpeechSynthesizer {
  private readonly client: OpenAI;

  constructor(config: OpenAISpeechConfig) {
    this.client = new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseUrl,
      timeout: config.timeoutMs ?? 10 * 60_000,
      maxRetries: config.maxRetries ?? 2,
      fetch: noRetryOnBillingRefusal(),
    });
  }

  async synthesize(speech: SpeechInput, signal?: AbortSignal): Promise<SpeechAudio> {
    try {
      // The language is not a field of this API: it detects the language from the text.
      const response = await this.client.audio.speech.create(
        {
          model: speech.model,
          voice: voiceUsed(speech.model, speech.voice),
          input: speech.input,
          speed: speech.speed,
          response_format: speech.format,
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
      // Mostly the same status as a rate limit, but waiting does not help: the account cannot pay
      // (openai-billing.ts). Fails now, token refunded.
      if (error instanceof APIError && isBillingRefusal(answerOf(error))) throw billingRefused(answerOf(error));
      if (error instanceof APIError && error.status === 429) {
        throw new ProviderBusyError(
          'openai',
          'rate_limited',
          parseRetryAfter(error.headers?.get('retry-after')),
          'HTTP 429',
        );
      }
      // Spec §8: 'Failed to generate speech' or the error's own message, which is OpenAI's words: the
      // operators read it, the creator a plain message (failure-report.ts).
      if (error instanceof APIError) {
        const status = error.status ?? 500;
        const detail = `: ${describeOpenAIAnswer(answerOf(error))}`;
        throw new GenerationError(
          'SPEECH_FAILED',
          ERROR_MESSAGES.SPEECH_FAILED + detail,
          isRetryableStatus(status),
          outcomeOfStatus(status),
          detail,
        );
      }
      throw GenerationError.of('SPEECH_FAILED', { retryable: true, outcome: 'malformed' });
    }
  }
}

function answerOf(error: APIError): OpenAIAnswer {
  const body = error.error as { message?: string } | undefined;
  return { status: error.status, code: error.code, type: error.type, message: body?.message ?? error.message };
}
