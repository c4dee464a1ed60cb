import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import { IMAGE_UPSCALER, type StableImageGenerateForm } from '@mediagen/shared';
import { GenerationError, filteredError, isRetryableStatus } from '../generation-error';
import { callForm, messageFrom, type BinaryResponse } from './http';
import { ProviderOutOfCreditError } from './out-of-credit-error';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';
import { imageCallFailure, isOutOfBalance } from './stability-client';

export interface StableImageConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** A generated or upscaled PNG, with the seed Stability says it used. */
export interface StableImage {
  png: Buffer;
  seed: number | undefined;
}

/**
 * Stability's current image service, v2beta Stable Image (https://platform.stability.ai/docs/api-reference,
 * OpenAPI https://api.stability.ai/v2alpha/openapi): `POST /v2beta/stable-image/generate/{core|sd3|ultra}`
 * and the Fast Upscaler `POST /v2beta/stable-image/upscale/fast`, both synchronous, multipart/form-data in,
 * the image's bytes out (`accept: image/*`) with `finish-reason` and `seed` headers.
 *
 * Errors are `{ id, name, errors: [...] }`: 400 (invalid field), 403 (`content_moderation`: the prompt was
 * refused and not charged), 413 (over 10 MiB), 422 (rejected, such as a prompt not in English), 429 (rate
 * limit, or an organization out of credit, told apart by the body as on v1), 500. Failures are not charged.
 */
export class StableImageClient {
  constructor(private readonly config: StableImageConfig) {}

  async generate(endpoint: string, fields: StableImageGenerateForm, signal?: AbortSignal): Promise<StableImage> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined) form.append(name, String(value));
    }
    return this.post(`/v2beta/stable-image/generate/${endpoint}`, form, signal);
  }

  /** Four times each side of `png`, which must keep to IMAGE_UPSCALER's input limits. */
  async upscale(png: Uint8Array, signal?: AbortSignal): Promise<StableImage> {
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), 'image.png');
    form.append('output_format', 'png');
    return this.post(`/v2beta/stable-image/upscale/${IMAGE_UPSCALER.endpoint}`, form, signal);
  }

  private async post(path: string, form: FormData, signal?: AbortSignal): Promise<StableImage> {
    const response = await callForm(`${this.config.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${this.config.apiKey}`, accept: 'image/*' },
      form,
      timeoutMs: this.config.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    }).catch(imageCallFailure);
    refuseUnlessOk(response);
    // A filtered image still comes back (blurred): the generation ran and was paid for, as on v1.
    if (header(response, 'finish-reason') === 'CONTENT_FILTERED') throw filteredError(1);
    if (!isPng(response.bytes)) {
      throw GenerationError.of('IMAGE_FAILED', { retryable: true, outcome: 'malformed' });
    }
    const seed = Number(header(response, 'seed'));
    return { png: response.bytes, seed: Number.isInteger(seed) ? seed : undefined };
  }
}

function refuseUnlessOk(response: BinaryResponse): void {
  const { status, json } = response;
  if (status >= 200 && status < 300) return;
  const detail = messageFrom(json, `HTTP ${status}`);
  if (status >= 400 && isOutOfBalance(json)) {
    throw new ProviderOutOfCreditError('stability', 'IMAGE_PROVIDER_ERROR', detail, outcomeOfStatus(status));
  }
  if (status === 429) {
    throw new ProviderBusyError(
      'stability',
      'rate_limited',
      parseRetryAfter(response.headers['retry-after']),
      'HTTP 429',
    );
  }
  // Refused before any work ("you were not charged"): no image, and the token comes back.
  if (status === 403 && (json as { name?: unknown } | undefined)?.name === 'content_moderation') {
    throw GenerationError.of('IMAGE_NOT_GENERATED', { retryable: false, outcome: 'http_4xx', detail: `: ${detail}` });
  }
  throw GenerationError.of('IMAGE_PROVIDER_ERROR', {
    detail,
    retryable: isRetryableStatus(status),
    outcome: outcomeOfStatus(status),
  });
}

function header(response: BinaryResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isPng(bytes: Buffer): boolean {
  return bytes.length > PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
}
