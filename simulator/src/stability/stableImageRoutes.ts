import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { PNG } from 'pngjs';
import { hasBearerToken } from '../bearerToken';
import type { FaultReplies, ProviderGate } from '../faults/providerGate';
import { renderPromptImage } from '../media/promptImage';
import { describeRequestError } from '../requestError';
import type { StableImageRequestRecord } from '../types';
import { seedFromPrompt } from './renderArtifacts';
import { STYLE_PRESETS } from './style-presets';

/**
 * Stability's v2beta error shape: `{ id, name, errors: [...] }` (https://api.stability.ai/v2alpha/openapi,
 * the generate and upscale endpoints' 400/403/413/422/429/500 answers).
 */
export function stableImageError(name: string, ...errors: string[]) {
  return { id: randomBytes(16).toString('hex'), name, errors };
}

/** v2beta refuses a request over 10 MiB with 413. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** sd3's published models (SD3 Large, Large Turbo and Medium now answer as their 3.5 successors; not simulated). */
export const SD3_MODELS = ['sd3.5-large', 'sd3.5-large-turbo', 'sd3.5-medium', 'sd3.5-flash'] as const;
const ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
const MAX_TEXT = 10_000;
const MAX_SEED = 4_294_967_294;

/**
 * Output sizes: Ultra and SD 3.5 render about 1 megapixel ("The resolution of the generated image will be
 * 1 megapixel"), Core about 1.5 megapixels; each aspect ratio at the nearest multiple of 64.
 */
const MEGAPIXELS: Record<GenerateEndpoint, number> = { ultra: 1, sd3: 1, core: 1.5 };
const ENDPOINT_FIELDS: Record<GenerateEndpoint, { negativePrompt: boolean; stylePreset: boolean; formats: string[] }> =
  {
    core: { negativePrompt: true, stylePreset: true, formats: ['png', 'jpeg', 'webp'] },
    ultra: { negativePrompt: true, stylePreset: false, formats: ['png', 'jpeg', 'webp'] },
    sd3: { negativePrompt: true, stylePreset: false, formats: ['png', 'jpeg'] },
  };
type GenerateEndpoint = 'core' | 'sd3' | 'ultra';

/** The Fast Upscaler: 4 times each side; input sides of 32 to 1,536 pixels, 1,024 to 1,048,576 pixels in all. */
export const FAST_UPSCALE = { factor: 4, minSide: 32, maxSide: 1536, minPixels: 1024, maxPixels: 1_048_576 };

export function outputSize(endpoint: GenerateEndpoint, ratio: string): { width: number; height: number } {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  const pixels = MEGAPIXELS[endpoint] * 1024 * 1024;
  const height = Math.sqrt((pixels * h) / w);
  const round = (side: number) => Math.max(64, Math.round(side / 64) * 64);
  return { width: round((height * w) / h), height: round(height) };
}

const rateLimitExceeded = () =>
  stableImageError(
    'rate_limit_exceeded',
    'You have exceeded the rate limit of 150 requests within a 10 second period, and have been timed out for 60 seconds.',
  );

export const stableImageFaultReplies: FaultReplies = {
  serverError: () =>
    stableImageError('internal_error', 'An unexpected server error has occurred, please try again later.'),
  rateLimited: rateLimitExceeded,
  // An answer that claims to be an image and is not one.
  malformed: { contentType: 'image/png', body: 'not a png' },
  overLimit: () => ({ status: 429, body: rateLimitExceeded() }),
  insufficientBalance: () => ({
    status: 429,
    body: stableImageError(
      'insufficient_balance',
      'Your organization does not have enough balance to request this action.',
    ),
  }),
};

class BadField extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

interface RouteDeps {
  gate: ProviderGate;
  record(entry: StableImageRequestRecord): void;
}

/**
 * Stability v2beta Stable Image: `POST /v2beta/stable-image/generate/{core,sd3,ultra}` and the Fast Upscaler
 * `POST /v2beta/stable-image/upscale/fast`, multipart/form-data in, the image out (`accept: image/*`, with
 * `finish-reason` and `seed` headers) or `{ image, finish_reason, seed }` (`accept: application/json`).
 */
export function stableImageRoutes({ gate, record }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: MAX_REQUEST_BYTES },
      (_r, body, done) => done(null, body),
    );
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof BadField)
        return reply.code(error.status).send(stableImageError(error.errorName, error.message));
      const { statusCode: status, message } = describeRequestError(error);
      if (status === 413) {
        return reply.code(413).send(stableImageError('payload_too_large', 'Your request was larger than 10MiB.'));
      }
      if (status >= 500) return reply.code(500).send(stableImageFaultReplies.serverError());
      return reply.code(status).send(stableImageError('bad_request', message));
    });

    app.post<{ Params: { endpoint: string } }>(
      '/v2beta/stable-image/generate/:endpoint',
      { onRequest: gate.guard('image', stableImageFaultReplies, 'stability'), bodyLimit: MAX_REQUEST_BYTES },
      async (request, reply) => {
        const endpoint = request.params.endpoint;
        if (endpoint !== 'core' && endpoint !== 'sd3' && endpoint !== 'ultra') {
          return reply.code(404).send(stableImageError('not_found', `no such endpoint: generate/${endpoint}`));
        }
        if (!hasBearerToken(request)) return unauthorized(reply);
        const form = await formOf(request);
        const fields = ENDPOINT_FIELDS[endpoint];
        const prompt = text(form, 'prompt', { required: true })!;
        const negativePrompt = text(form, 'negative_prompt');
        const model = endpoint === 'sd3' ? choice(form, 'model', SD3_MODELS, 'sd3.5-large') : undefined;
        if (negativePrompt !== undefined && model === 'sd3.5-large-turbo') {
          throw new BadField(400, 'bad_request', 'negative_prompt: not supported by sd3.5-large-turbo');
        }
        const aspectRatio = choice(form, 'aspect_ratio', ASPECT_RATIOS, '1:1');
        const stylePreset = fields.stylePreset ? optionalChoice(form, 'style_preset', STYLE_PRESETS) : undefined;
        if (!fields.stylePreset && form.has('style_preset')) {
          throw new BadField(400, 'bad_request', `style_preset: not a field of generate/${endpoint}`);
        }
        if (!fields.negativePrompt && negativePrompt !== undefined) {
          throw new BadField(400, 'bad_request', `negative_prompt: not a field of generate/${endpoint}`);
        }
        const outputFormat = choice(form, 'output_format', fields.formats, 'png');
        const seed = seedOf(form, prompt);
        record({
          endpoint: `generate/${endpoint}`,
          ...(model === undefined ? {} : { model }),
          prompt,
          ...(negativePrompt === undefined ? {} : { negative_prompt: negativePrompt }),
          aspect_ratio: aspectRatio,
          ...(stylePreset === undefined ? {} : { style_preset: stylePreset }),
          seed,
          output_format: outputFormat,
          accept: acceptOf(request),
        });
        const { width, height } = outputSize(endpoint, aspectRatio);
        const png = renderPromptImage(
          `${endpoint}:${model ?? ''}:${prompt}\n-${negativePrompt ?? ''}`,
          seed,
          width,
          height,
        );
        const filtered = gate.routeFaultOf(request)?.fault === 'content-filtered';
        return sendImage(request, reply, png, seed, filtered);
      },
    );

    app.post(
      '/v2beta/stable-image/upscale/fast',
      { onRequest: gate.guard('upscale', stableImageFaultReplies, 'stability'), bodyLimit: MAX_REQUEST_BYTES },
      async (request, reply) => {
        if (!hasBearerToken(request)) return unauthorized(reply);
        const form = await formOf(request);
        const image = form.get('image');
        if (image === null || typeof image === 'string') {
          throw new BadField(400, 'bad_request', 'image: required, an image file');
        }
        const outputFormat = choice(form, 'output_format', ['png', 'jpeg', 'webp'], 'png');
        let input: PNG;
        try {
          input = PNG.sync.read(Buffer.from(await image.arrayBuffer()));
        } catch {
          throw new BadField(400, 'bad_request', 'image: the simulator reads PNG images only');
        }
        const { width, height } = input;
        const u = FAST_UPSCALE;
        if (width < u.minSide || height < u.minSide || width > u.maxSide || height > u.maxSide) {
          throw new BadField(
            400,
            'bad_request',
            `image: width and height must be between ${u.minSide} and ${u.maxSide}`,
          );
        }
        if (width * height < u.minPixels || width * height > u.maxPixels) {
          throw new BadField(
            400,
            'bad_request',
            `image: total pixel count must be between ${u.minPixels} and ${u.maxPixels}`,
          );
        }
        record({
          endpoint: 'upscale/fast',
          output_format: outputFormat,
          accept: acceptOf(request),
          image: { width, height },
        });
        const filtered = gate.routeFaultOf(request)?.fault === 'content-filtered';
        return sendImage(request, reply, scaleUp(input, u.factor), 0, filtered);
      },
    );
  };
}

function unauthorized(reply: FastifyReply) {
  return reply.code(401).send(stableImageError('unauthorized', 'missing authorization header'));
}

async function formOf(request: FastifyRequest): Promise<FormData> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(request.body)) {
    throw new BadField(400, 'bad_request', 'the body must be multipart/form-data');
  }
  try {
    return await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new BadField(400, 'bad_request', 'the multipart/form-data body could not be read');
  }
}

function text(form: FormData, name: string, { required = false } = {}): string | undefined {
  const value = form.get(name);
  if (value === null) {
    if (required) throw new BadField(400, 'bad_request', `${name}: required`);
    return undefined;
  }
  if (typeof value !== 'string') throw new BadField(400, 'bad_request', `${name}: must be text`);
  if (required && value.length === 0) throw new BadField(400, 'bad_request', `${name}: cannot be empty`);
  if (value.length > MAX_TEXT) throw new BadField(400, 'bad_request', `${name}: at most ${MAX_TEXT} characters`);
  return value;
}

function choice<T extends string>(form: FormData, name: string, values: readonly T[], fallback: T): T {
  return optionalChoice(form, name, values) ?? fallback;
}

function optionalChoice<T extends string>(form: FormData, name: string, values: readonly T[]): T | undefined {
  const value = text(form, name);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw new BadField(400, 'bad_request', `${name}: must be one of ${values.join(', ')}`);
  }
  return value as T;
}

/** 0 (or none) asks for a random seed; the simulator derives one from the prompt to stay reproducible. */
function seedOf(form: FormData, prompt: string): number {
  const value = text(form, 'seed');
  if (value === undefined || value === '0') return seedFromPrompt(prompt);
  const seed = Number(value);
  if (!/^\d+$/.test(value) || seed > MAX_SEED) throw new BadField(400, 'bad_request', `seed: 0 to ${MAX_SEED}`);
  return seed;
}

function acceptOf(request: FastifyRequest): string {
  return request.headers.accept ?? 'image/*';
}

/** `image/*` (the default): the bytes with their headers; `application/json`: base64 in a body. */
function sendImage(request: FastifyRequest, reply: FastifyReply, png: Buffer, seed: number, filtered: boolean) {
  const finishReason = filtered ? 'CONTENT_FILTERED' : 'SUCCESS';
  if (acceptOf(request).includes('application/json')) {
    return reply.send({ image: png.toString('base64'), finish_reason: finishReason, seed });
  }
  return reply.header('finish-reason', finishReason).header('seed', String(seed)).type('image/png').send(png);
}

/** Nearest-neighbour: a real PNG of the upscaled size, quick enough for 4096². */
function scaleUp(input: PNG, factor: number): Buffer {
  const width = input.width * factor;
  const height = input.height * factor;
  const data = Buffer.alloc(width * height * 3);
  let index = 0;
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * input.width;
    for (let x = 0; x < width; x++) {
      const source = (row + Math.floor(x / factor)) * 4;
      data[index++] = input.data[source]!;
      data[index++] = input.data[source + 1]!;
      data[index++] = input.data[source + 2]!;
    }
  }
  const png = new PNG({ width, height });
  png.data = data;
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, filterType: 2, deflateLevel: 1 });
}
