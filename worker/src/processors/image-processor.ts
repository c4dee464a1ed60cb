import sharp from 'sharp';
import {
  missingOutput,
  isMissingOutput,
  setImageOf,
  type CompletedArtifact,
  type CompletedOutput,
  type ImageMade,
  type RequestByKind,
  type StoredOutput,
} from '@mediagen/core';
import {
  IMAGE_MODEL_RULES,
  IMAGE_UPSCALER,
  buildStabilityBody,
  buildStableImageForm,
  isImageModel,
  seedOfImage,
  tokensOfRequest,
  type ImageModel,
} from '@mediagen/shared';
import { GenerationError, filteredError, isFilteredError } from '../generation-error';
import { storeResult, type GenerationProcessor, type JobAttempt, type ProcessorContext } from './processor-context';

const EXPECTED_IMAGE_MS = 8000;
const EXPECTED_UPSCALE_MS = 4000;
/** Where the work of a run spreads its progress: the calls and each image's storing, before completion. */
const PROGRESS_FROM = 5;
const PROGRESS_TO = 90;

/** An image as the provider answered: its PNG and seed, or filtered (withheld, its token back). */
type MadeImage = { png: Uint8Array; seed: number | undefined } | { filtered: true; seed: number | undefined };

type ImageJob = Parameters<GenerationProcessor<'image'>>[0];

/**
 * An image, or an image set (`samples`), in paid calls: the generation by the request's model (the v1
 * engine makes the whole set in one call, v2beta Stable Image one image a call), then for
 * `resolution: "4k"` Stability's upscaler, once per image. Each call goes through the run's paid-call
 * bookkeeping: counted before it leaves, its turn in Stability's rate limit, its cost recorded.
 *
 * Each image is finished on its own (upscaled, stored) and kept in the job's data as soon as it is
 * (`imagesMade`), so a later run (a retry, a takeover, a job back from waiting) makes only the images still
 * missing, with the same seeds, and pays for none twice. An image the provider filtered stays in the set as
 * filtered; when a call fails for good (JobAttempt.endsTheJob) after images were made, the set completes
 * with them and the images not made are listed as failed: each filtered or failed image gives its token
 * back. A set with no image made fails by the usual rules (all filtered: as a single filtered image does).
 */
export function createImageProcessor(context: ProcessorContext): GenerationProcessor<'image'> {
  return async (job, attempt) => {
    const request = attempt.generation.request as RequestByKind['image'];
    // Recorded before models were: the v1 engine, as it was made then.
    const model: ImageModel = isImageModel(request.model) ? request.model : 'sdxl-1.0';
    const set = new ImageSet(job, attempt, tokensOfRequest('image', request));
    // Not waited for: the provider call need not wait on Redis, and the two arrive before its progress.
    void attempt.progress.report(PROGRESS_FROM);
    try {
      await makeMissing(context, job, attempt, request, model, set);
    } catch (error) {
      if (set.stored() === 0 || !attempt.endsTheJob(error)) throw withFilteredImages(error, set.filtered());
      const missing = set.missing();
      void attempt.log(
        `image ${missing[0]! + 1} of ${set.size} failed for good (${errorText(error)}): the set completes with ` +
          `its ${set.stored()} image(s) made, ${missing.length} not made, their tokens back`,
      );
      for (const index of missing) set.notMade(index, seedOfImage(request.seed, index));
    }
    return set.completed();
  };
}

/**
 * The images still missing, one after another: v1 in one call of `samples` (the call makes the set, so
 * it goes out unless every image was kept), v2beta one paid call per image with the request's seed + its
 * place, so a retry asks for the same picture.
 */
async function makeMissing(
  context: ProcessorContext,
  job: ImageJob,
  attempt: JobAttempt<'image'>,
  request: RequestByKind['image'],
  model: ImageModel,
  set: ImageSet,
): Promise<void> {
  const { prompt, seed, ...options } = request;
  const rules = IMAGE_MODEL_RULES[model];
  const fourK = request.resolution === '4k';
  const missing = set.missing();
  if (missing.length === 0) return;
  const share = (PROGRESS_TO - PROGRESS_FROM) / missing.length;
  const perImageMs = (rules.api === 'v1-text-to-image' ? 0 : EXPECTED_IMAGE_MS) + (fourK ? EXPECTED_UPSCALE_MS : 0);

  let samples: MadeImage[] | undefined;
  if (rules.api === 'v1-text-to-image') {
    const body = buildStabilityBody(prompt, { ...options, samples: set.size }, seed, context.stability.engine);
    void attempt.log(
      `stability text-to-image ${body.width}x${body.height}, ${body.steps} steps, seed ${seed}, ${body.samples} sample(s)`,
    );
    const answered = await attempt.progress.during(
      attempt.call('stability', 'text_to_image', (signal) => context.stability.textToImage(body, signal), {
        paid: true,
      }),
      { from: PROGRESS_FROM, to: fourK ? 50 : PROGRESS_TO - 5, expectedMs: EXPECTED_IMAGE_MS },
    );
    samples = answered.map((sample, index) => ({ ...sample, seed: sample.seed ?? seedOfImage(seed, index) }));
  }

  for (const [done, index] of missing.entries()) {
    const from = PROGRESS_FROM + share * done;
    const made = await attempt.progress.during(
      (async (): Promise<MadeImage> => {
        // v1 answered every sample asked for (StabilityClient.textToImage), in order.
        const generated =
          samples === undefined ? await generateOne(context, attempt, request, model, index) : samples[index]!;
        return fourK ? upscale(context, attempt, generated) : generated;
      })(),
      { from, to: from + share, expectedMs: Math.max(perImageMs, 1000) },
    );
    await set.add(
      index,
      'filtered' in made
        ? missingOutput('filtered', made.seed)
        : await storeImage(context, job, attempt, made, index, from + share),
    );
  }
}

/** v2beta: image `index` of the set, a paid call of its own with the request's seed + index. */
async function generateOne(
  context: ProcessorContext,
  attempt: JobAttempt<'image'>,
  request: RequestByKind['image'],
  model: ImageModel,
  index: number,
): Promise<MadeImage> {
  const { prompt, seed, ...options } = request;
  const count = tokensOfRequest('image', request);
  const imageSeed = seedOfImage(seed, index);
  const form = buildStableImageForm(prompt, options, imageSeed, model);
  void attempt.log(`stability ${model} ${form.aspect_ratio}, seed ${imageSeed} (image ${index + 1} of ${count})`);
  return filteredAsImage(imageSeed, () =>
    attempt.call(
      'stability',
      'text_to_image',
      async (signal) => {
        const made = await context.stableImage.generate(IMAGE_MODEL_RULES[model].endpoint!, form, signal);
        return { png: made.png, seed: made.seed ?? imageSeed };
      },
      { paid: true },
    ),
  );
}

/** A call whose image the provider filtered leaves a filtered image in the set; anything else is thrown. */
async function filteredAsImage(
  seed: number | undefined,
  made: () => Promise<{ png: Uint8Array; seed: number | undefined }>,
): Promise<MadeImage> {
  try {
    return await made();
  } catch (error) {
    if (isFilteredError(error)) return { filtered: true, seed };
    throw error;
  }
}

/** 4K: an image made goes through the upscaler, a paid call of its own; a filtered one is left as it is. */
async function upscale(context: ProcessorContext, attempt: JobAttempt<'image'>, image: MadeImage): Promise<MadeImage> {
  if ('filtered' in image) return image;
  const input = await withinUpscalerInput(image.png);
  void attempt.log(`stability upscale ${IMAGE_UPSCALER.endpoint} x${IMAGE_UPSCALER.factor}`);
  return filteredAsImage(image.seed, async () => ({
    png: await attempt.call(
      'stability',
      'image_upscale',
      async (signal) => (await context.stableImage.upscale(input, signal)).png,
      { paid: true },
    ),
    seed: image.seed,
  }));
}

/** Stores image `index` (original and marked copy; `setImageOf` names the second and later). */
async function storeImage(
  context: ProcessorContext,
  job: ImageJob,
  attempt: JobAttempt<'image'>,
  image: { png: Uint8Array; seed: number | undefined },
  index: number,
  progress: number,
): Promise<StoredOutput> {
  const stored = await storeResult(context, job, attempt, image.png, 'image/png', setImageOf(job.id!, index), progress);
  return { ...stored, markedKey: stored.markedKey ?? null, ...(image.seed === undefined ? {} : { seed: image.seed }) };
}

/**
 * The set as far as the runs got, by place: what earlier runs kept in the job's data, then each image this
 * run finishes, kept there as it is. A save Redis refuses costs only a second call for that image later.
 */
class ImageSet {
  private readonly outputs: (CompletedOutput | undefined)[];

  constructor(
    private readonly job: ImageJob,
    private readonly attempt: JobAttempt<'image'>,
    readonly size: number,
  ) {
    this.outputs = Array.from({ length: size }, () => undefined);
    for (const { index, output } of job.data.imagesMade ?? []) {
      if (index >= 0 && index < size) this.outputs[index] = output;
    }
    const kept = (job.data.imagesMade ?? []).length;
    if (kept > 0) void attempt.log(`${kept} image(s) of the set made by an earlier run kept: not made again`);
  }

  /** The places of the images not finished yet, in order. */
  missing(): number[] {
    return this.outputs.flatMap((output, index) => (output === undefined ? [index] : []));
  }

  stored(): number {
    return this.outputs.filter((output) => output !== undefined && !isMissingOutput(output)).length;
  }

  filtered(): number {
    return this.outputs.filter((output) => output !== undefined && isMissingOutput(output) && 'filtered' in output)
      .length;
  }

  /** Image `index` failed for good: listed as not made, its token back. This run's ending, never kept. */
  notMade(index: number, seed: number): void {
    this.outputs[index] = missingOutput('failed', seed);
  }

  /** Image `index` is finished (stored, or filtered): kept in the job's data for any later run. */
  async add(index: number, output: CompletedOutput): Promise<void> {
    this.outputs[index] = output;
    if (this.size === 1) return;
    const imagesMade: ImageMade[] = this.outputs.flatMap((kept, place) =>
      kept === undefined ? [] : [{ index: place, output: kept }],
    );
    await this.attempt.saveStep({ imagesMade }).catch((error: unknown) => {
      void this.attempt.log(
        `could not keep the images made in the job (${errorText(error)}): a retry makes them again`,
      );
    });
  }

  /** The set as the record keeps it: one image as it always was, a set with every output listed. */
  completed(): CompletedArtifact {
    const outputs = this.outputs.map((output) => output ?? missingOutput('failed', undefined));
    const first = outputs.find((output): output is StoredOutput => !isMissingOutput(output));
    if (first === undefined) throw filteredError(this.filtered());
    return outputs.length === 1 ? first : { ...first, outputs };
  }
}

/**
 * A set that ends with no image made fails by the usual rules, but its filtered images still give their
 * tokens back whatever the failure (README, "Token rules": image sets).
 */
function withFilteredImages(error: unknown, filtered: number): unknown {
  if (filtered === 0 || !(error instanceof GenerationError) || error.filtered !== undefined) return error;
  return new GenerationError(error.code, error.message, error.retryable, error.outcome, error.detail, filtered);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The upscaler takes at most 1,048,576 pixels and 1,536 a side: a larger picture (Core renders about 1.5
 * megapixels) is first scaled down to fit, so every model can be made in 4K.
 */
export async function withinUpscalerInput(png: Uint8Array): Promise<Uint8Array> {
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
