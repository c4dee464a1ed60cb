import sharp from 'sharp';
import type { RequestByKind } from '@mediagen/core';
import {
  IMAGE_MODEL_RULES,
  IMAGE_UPSCALER,
  buildStabilityBody,
  buildStableImageForm,
  isImageModel,
  type ImageModel,
} from '@mediagen/shared';
import { storeResult, type GenerationProcessor, type JobAttempt, type ProcessorContext } from './processor-context';

const EXPECTED_IMAGE_MS = 8000;
const EXPECTED_UPSCALE_MS = 4000;

/**
 * An image in one or two paid calls: the generation by the request's model (the v1 engine, or v2beta
 * Stable Image), then for `resolution: "4k"` Stability's upscaler. Each call goes through the run's
 * paid-call bookkeeping: counted before it leaves, its turn in Stability's rate limit, its cost recorded.
 */
export function createImageProcessor(context: ProcessorContext): GenerationProcessor<'image'> {
  return async (job, attempt) => {
    const request = attempt.generation.request as RequestByKind['image'];
    // Recorded before models were: the v1 engine, as it was made then.
    const model: ImageModel = isImageModel(request.model) ? request.model : 'sdxl-1.0';
    const fourK = request.resolution === '4k';
    // Not waited for: the provider call need not wait on Redis, and the two arrive before its progress.
    void attempt.progress.report(5);
    const generated = await attempt.progress.during(generate(context, attempt, request, model), {
      from: 5,
      to: fourK ? 60 : 90,
      expectedMs: EXPECTED_IMAGE_MS,
    });
    if (!fourK) return storeResult(context, job, attempt, generated, 'image/png');
    const input = await withinUpscalerInput(generated);
    void attempt.log(`stability upscale ${IMAGE_UPSCALER.endpoint} x${IMAGE_UPSCALER.factor}`);
    const upscaled = await attempt.progress.during(
      attempt.call(
        'stability',
        'image_upscale',
        async (signal) => (await context.stableImage.upscale(input, signal)).png,
        { paid: true },
      ),
      { from: 60, to: 90, expectedMs: EXPECTED_UPSCALE_MS },
    );
    return storeResult(context, job, attempt, upscaled, 'image/png');
  };
}

/** The seed was fixed at submit, so a retried attempt asks for the same picture. */
async function generate(
  context: ProcessorContext,
  attempt: JobAttempt<'image'>,
  request: RequestByKind['image'],
  model: ImageModel,
): Promise<Uint8Array> {
  const { prompt, seed, ...options } = request;
  const rules = IMAGE_MODEL_RULES[model];
  if (rules.api === 'v1-text-to-image') {
    const body = buildStabilityBody(prompt, options, seed, context.stability.engine);
    void attempt.log(`stability text-to-image ${body.width}x${body.height}, ${body.steps} steps, seed ${seed}`);
    return attempt.call('stability', 'text_to_image', (signal) => context.stability.textToImage(body, signal), {
      paid: true,
    });
  }
  const form = buildStableImageForm(prompt, options, seed, model);
  void attempt.log(`stability ${model} ${form.aspect_ratio}, seed ${seed}`);
  return attempt.call(
    'stability',
    'text_to_image',
    async (signal) => (await context.stableImage.generate(rules.endpoint!, form, signal)).png,
    { paid: true },
  );
}

/**
 * The upscaler takes at most 1,048,576 pixels and 1,536 a side: a larger picture (Core renders about 1.5
 * megapixels) is first scaled down to fit, so every model can be made in 4K.
 */
async function withinUpscalerInput(png: Uint8Array): Promise<Uint8Array> {
  const { width, height } = await sharp(png).metadata();
  if (width === undefined || height === undefined) return png;
  const scale = Math.min(
    1,
    IMAGE_UPSCALER.maxInputSide / Math.max(width, height),
    Math.sqrt(IMAGE_UPSCALER.maxInputPixels / (width * height)),
  );
  if (scale === 1) return png;
  return sharp(png)
    .resize(Math.floor(width * scale), Math.floor(height * scale))
    .png()
    .toBuffer();
}
