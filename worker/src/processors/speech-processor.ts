import { ProgressReporter } from './job-progress';
import { storeResult, throwIfCanceled, type GenerationProcessor, type ProcessorContext } from './processor-context';

const EXPECTED_SPEECH_MS = 4000;

export function createSpeechProcessor(context: ProcessorContext): GenerationProcessor<'speech'> {
  return async (job, attempt) => {
    await throwIfCanceled(context, job, attempt);
    const progress = new ProgressReporter(job);
    await progress.report(5);
    const { input, voice, speed, language } = job.data.request;
    // The language only guides the user's choice of text: OpenAI speech detects it from the input.
    await job.log(`openai speech: voice ${voice}, speed ${speed}, language ${language}, ${input.length} chars`);
    const audio = await progress.during(
      attempt.call('openai', 'speech', (signal) => context.speech.synthesize({ input, voice, speed }, signal)),
      { from: 5, to: 90, expectedMs: EXPECTED_SPEECH_MS },
    );
    await progress.report(95);
    return storeResult(context, job, attempt, audio.bytes, audio.mimeType);
  };
}
