import type { StabilityEngine, StabilityTextToImageBody } from '@mediagen/shared';
import { GenerationError, filteredError, isRetryableStatus } from '../generation-error';
import { NetworkError, callJson, messageFrom } from './http';
import { ProviderOutOfCreditError } from './out-of-credit-error';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

export interface StabilityConfig {
  baseUrl: string;
  apiKey: string;
  engine: StabilityEngine;
  timeoutMs: number;
}

interface TextToImageResponse {
  artifacts?: { base64?: string; finishReason?: string; seed?: number }[];
}

/** One sample of a v1 answer: its PNG and seed, or an image Stability filtered (no usable bytes). */
export type StabilitySample = { png: Buffer; seed: number | undefined } | { filtered: true; seed: number | undefined };

/**
 * An organization out of credit answers HTTP 429, the status of a rate limit, with its own name
 * (`insufficient_balance`, "Your organization does not have enough balance to request this action"):
 * only the body tells the two apart, and waiting out a lockout would not bring credit back.
 */
export function isOutOfBalance(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const { name, message, errors } = body as { name?: unknown; message?: unknown; errors?: unknown };
  // v1 says it in `message`, v2beta in `errors`.
  const words = [message, ...(Array.isArray(errors) ? errors : [])];
  return (
    name === 'insufficient_balance' ||
    words.some((text) => typeof text === 'string' && /not have enough balance/i.test(text))
  );
}

/**
 * Stability AI v1 REST: POST /v1/generation/{engine}/text-to-image
 * (https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6). A rate limit's 429 comes
 * back as ProviderBusyError: the gateway holds every worker back for Stability's 60 s lockout. An
 * organization out of credit comes back as ProviderOutOfCreditError, whatever its status.
 */
export class StabilityClient {
  constructor(private readonly config: StabilityConfig) {}

  /** The body depends on it: SDXL takes nine sizes and no CLIP guidance. */
  get engine(): StabilityEngine {
    return this.config.engine;
  }

  /**
   * Every sample asked for (`body.samples`: an image set in one call), in order. A filtered sample comes
   * back as filtered; when every one is, the call fails as filtered (the creator's tokens come back).
   */
  async textToImage(body: StabilityTextToImageBody, signal?: AbortSignal): Promise<StabilitySample[]> {
    const url = `${this.config.baseUrl}/v1/generation/${encodeURIComponent(this.config.engine)}/text-to-image`;
    const response = await callJson(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      body,
      timeoutMs: this.config.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    }).catch(imageCallFailure);
    if (response.status >= 400 && isOutOfBalance(response.json)) {
      throw new ProviderOutOfCreditError(
        'stability',
        'IMAGE_PROVIDER_ERROR',
        messageFrom(response.json, `HTTP ${response.status}`),
        outcomeOfStatus(response.status),
      );
    }
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
    // A filtered artifact still carries (blurred) image bytes: the generation ran and was paid for. A
    // failed or empty one means no image.
    const artifacts = ((response.json as TextToImageResponse).artifacts ?? []).slice(0, body.samples);
    if (artifacts.length < body.samples) {
      throw GenerationError.of('IMAGE_NOT_GENERATED', { retryable: false, outcome: 'malformed' });
    }
    const samples = artifacts.map((artifact): StabilitySample | null => {
      const seed = Number.isInteger(artifact.seed) ? artifact.seed : undefined;
      if (artifact.finishReason === 'CONTENT_FILTERED') return { filtered: true, seed };
      if (artifact.base64 === undefined || artifact.finishReason === 'ERROR') return null;
      return { png: Buffer.from(artifact.base64, 'base64'), seed };
    });
    if (samples.some((sample) => sample === null)) {
      throw GenerationError.of('IMAGE_NOT_GENERATED', { retryable: false, outcome: 'malformed' });
    }
    if (samples.every((sample) => sample !== null && 'filtered' in sample)) throw filteredError(samples.length);
    return samples as StabilitySample[];
  }

  /**
   * The organization's credits (GET /v1/user/balance; 1 credit = $0.01): what the credit probe reads
   * while Stability is marked out of credit. Throws on any answer without a number of credits.
   */
  async balanceCredits(signal?: AbortSignal): Promise<number> {
    const response = await callJson(`${this.config.baseUrl}/v1/user/balance`, {
      method: 'GET',
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      timeoutMs: this.config.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    });
    const credits = (response.json as { credits?: unknown } | undefined)?.credits;
    if (response.status !== 200 || typeof credits !== 'number') {
      throw new Error(`Stability balance: ${messageFrom(response.json, `HTTP ${response.status}`)}`);
    }
    return credits;
  }
}

/**
 * A Stability call (any API) lost on the way, as the image job's failure: worth another attempt, counted
 * by how it was lost. Anything else is passed on as it was thrown.
 */
export function imageCallFailure(error: unknown): never {
  if (error instanceof NetworkError)
    throw GenerationError.of('IMAGE_FAILED', { retryable: true, outcome: error.outcome });
  throw error;
}
