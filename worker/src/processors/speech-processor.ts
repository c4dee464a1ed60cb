import type { RequestByKind } from '@mediagen/core';
import { storeResult, type GenerationProcessor, type ProcessorContext } from './processor-context';

const EXPECTED_SPEECH_MS = 4000;

export function createSpeechProcessor(context: ProcessorContext): GenerationProcessor<'speech'> {
  return async (job, attempt) => {
    const { input, voice, speed, language } = attempt.generation.request as RequestByKind['speech'];
    // The language only guides the user's choice of text: OpenAI speech detects it from the input.
    // Not waited for: the provider call need not wait on Redis, and the two arrive before its progress.
    void attempt.progress.report(5);
    void attempt.log(`openai speech: voice ${voice}, speed ${speed}, language ${language}, ${input.length} chars`);
    const audio = await attempt.progress.during(
      attempt.call('openai', 'speech', (signal) => context.speech.synthesize({ input, voice, speed }, signal), {
        paid: true,
      }),
      { from: 5, to: 90, expectedMs: EXPECTED_SPEECH_MS },
    );
    return storeResult(context, job, attempt, audio.bytes, audio.mimeType);
  };
}
