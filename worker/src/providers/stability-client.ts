import type { StabilityTextToImageBody } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { NetworkError, callJson, messageFrom } from './http';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

export interface StabilityConfig {
  baseUrl: string;
  apiKey: string;
  engine: string;
  timeoutMs: number;
}

interface TextToImageResponse {
  artifacts?: { base64?: string; finishReason?: string }[];
}

/** Stability AI v1 REST: POST /v1/generation/{engine}/text-to-image. */
export class StabilityClient {
  constructor(private readonly config: StabilityConfig) {}

  async textToImage(body: StabilityTextToImageBody, signal?: AbortSignal): Promise<Uint8Array> {
    const url = `${this.config.baseUrl}/v1/generation/${encodeURIComponent(this.config.engine)}/text-to-image`;
    const response = await callJson(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      body,
      timeoutMs: this.config.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    }).catch((error: unknown) => {
      if (error instanceof NetworkError)
        throw GenerationError.of('IMAGE_FAILED', { retryable: true, outcome: error.outcome });
      throw error;
    });
    if (response.status === 429) {
      throw new ProviderBusyError(
        'stability',
        'rate_limited',
        parseRetryAfter(response.headers['retry-after']),
        'HTTP 429',
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('IMAGE_PROVIDER_ERROR', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: isRetryableStatus(response.status),
        outcome: outcomeOfStatus(response.status),
      });
    }
    if (response.json === undefined)
      throw GenerationError.of('IMAGE_FAILED', { retryable: true, outcome: 'malformed' });
    // The spec reads the first artifact only; a filtered or empty answer means no image.
    const artifact = (response.json as TextToImageResponse).artifacts?.[0];
    if (artifact?.base64 === undefined || artifact.finishReason === 'CONTENT_FILTERED') {
      throw GenerationError.of('IMAGE_NOT_GENERATED', {
        retryable: false,
        outcome: artifact?.finishReason === 'CONTENT_FILTERED' ? 'http_4xx' : 'malformed',
      });
    }
    return Buffer.from(artifact.base64, 'base64');
  }
}
