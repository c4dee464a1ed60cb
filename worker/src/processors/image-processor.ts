import { buildStabilityBody } from '@mediagen/shared';
import { ProgressReporter } from './job-progress';
import { storeResult, throwIfCanceled, type GenerationProcessor, type ProcessorContext } from './processor-context';

const EXPECTED_IMAGE_MS = 8000;

export function createImageProcessor(context: ProcessorContext): GenerationProcessor<'image'> {
  return async (job, attempt) => {
    await throwIfCanceled(context, job, attempt);
    const progress = new ProgressReporter(job);
    const { prompt, seed, ...options } = job.data.request;
    // The seed was fixed at enqueue, so a retried attempt asks for the same picture.
    const body = buildStabilityBody(prompt, options, seed);
    await Promise.all([
      progress.report(5),
      job.log(`stability text-to-image ${body.width}x${body.height}, ${body.steps} steps, seed ${seed}`),
    ]);
    const png = await progress.during(
      attempt.call('stability', 'text_to_image', (signal) => context.stability.textToImage(body, signal)),
      { from: 5, to: 90, expectedMs: EXPECTED_IMAGE_MS },
    );
    return storeResult(context, job, attempt, progress, png, 'image/png');
  };
}
