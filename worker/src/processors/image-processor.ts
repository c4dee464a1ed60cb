import type { RequestByKind } from '@mediagen/core';
import { buildStabilityBody } from '@mediagen/shared';
import { storeResult, type GenerationProcessor, type ProcessorContext } from './processor-context';

const EXPECTED_IMAGE_MS = 8000;

export function createImageProcessor(context: ProcessorContext): GenerationProcessor<'image'> {
  return async (job, attempt) => {
    const { prompt, seed, ...options } = attempt.generation.request as RequestByKind['image'];
    // The seed was fixed at submit, so a retried attempt asks for the same picture.
    const body = buildStabilityBody(prompt, options, seed, context.stability.engine);
    // Not waited for: the provider call need not wait on Redis, and the two arrive before its progress.
    void attempt.progress.report(5);
    void attempt.log(`stability text-to-image ${body.width}x${body.height}, ${body.steps} steps, seed ${seed}`);
    const png = await attempt.progress.during(
      attempt.call('stability', 'text_to_image', (signal) => context.stability.textToImage(body, signal), {
        paid: true,
      }),
      { from: 5, to: 90, expectedMs: EXPECTED_IMAGE_MS },
    );
    return storeResult(context, job, attempt, png, 'image/png');
  };
}
