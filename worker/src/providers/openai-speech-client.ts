import OpenAI, { APIConnectionError, APIError } from 'openai';
import { SPEECH_DEFAULTS } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';

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

/** Text to speech through the official `openai` client (it retries 408, 409, 429 and 5xx itself). */
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

  async synthesize(speech: SpeechInput): Promise<{ bytes: Uint8Array; mimeType: string }> {
    try {
      const response = await this.client.audio.speech.create({
        model: SPEECH_DEFAULTS.model,
        voice: speech.voice,
        input: speech.input,
        speed: speech.speed,
        response_format: SPEECH_DEFAULTS.responseFormat,
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.byteLength === 0) throw GenerationError.of('SPEECH_FAILED', { retryable: true });
      return { bytes, mimeType: response.headers.get('content-type') ?? 'audio/mpeg' };
    } catch (error) {
      if (error instanceof GenerationError) throw error;
      if (error instanceof APIConnectionError) throw GenerationError.of('SPEECH_FAILED', { retryable: true });
      // Spec §8: 'Failed to generate speech' or the error's own message.
      if (error instanceof APIError) {
        const message = (error.error as { message?: string } | undefined)?.message ?? error.message;
        throw new GenerationError('SPEECH_FAILED', message || 'Failed to generate speech', isRetryableStatus(error.status ?? 500));
      }
      throw GenerationError.of('SPEECH_FAILED', { retryable: true });
    }
  }
}
