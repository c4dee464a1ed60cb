import { ProgressReporter } from './job-progress';
import { storeResult, throwIfCanceled, type GenerationProcessor, type ProcessorContext } from './processor-context';

const EXPECTED_SPEECH_MS = 4000;

export function createSpeechProcessor(context: ProcessorContext): GenerationProcessor<'speech'> {
  return async (job, attempt) => {
    await throwIfCanceled(context, job, attempt);
    const progress = new ProgressReporter(job);
    const { input, voice, speed, language } = job.data.request;
    // The language only guides the user's choice of text: OpenAI speech detects it from the input.
    await Promise.all([
      progress.report(5),
      job.log(`openai speech: voice ${voice}, speed ${speed}, language ${language}, ${input.length} chars`),
    ]);
    const audio = await progress.during(
      attempt.call('openai', 'speech', (signal) => context.speech.synthesize({ input, voice, speed }, signal)),
      { from: 5, to: 90, expectedMs: EXPECTED_SPEECH_MS },
    );
    return storeResult(context, job, attempt, progress, audio.bytes, audio.mimeType);
  };
}
