import type { RequestByKind } from '@mediagen/core';
import { SPEECH_DEFAULTS, SPEECH_MODELS, isRetired, voiceUsed, type SpeechModel } from '@mediagen/shared';
import { GenerationError } from '../generation-error';
import type { SpeechInput } from '../providers/speech-synthesizer';
import { storeResult, type GenerationProcessor, type ProcessorContext } from './processor-context';

/** A second of reading for every 14 characters, and the connection: what the progress creeps towards. */
const EXPECTED_MS_PER_CHARACTER = 70;
const EXPECTED_BASE_MS = 3000;

export function createSpeechProcessor(context: ProcessorContext): GenerationProcessor<'speech'> {
  return async (job, attempt) => {
    const speech = speechInputOf(attempt.generation.request, context.speechModel);
    if (isRetired(speech.model, context.clock())) {
      // Before any call: the call its start counted is given back, so the creator pays nothing.
      void attempt.log(
        `openai ${speech.model}: shut down by OpenAI on ${SPEECH_MODELS[speech.model].shutdownOn}; not sent`,
      );
      throw retiredModel();
    }
    // Not waited for: the provider call need not wait on Redis, and the two arrive before its progress.
    void attempt.progress.report(5);
    void attempt.log(
      `openai ${speech.model}: voice ${speech.voice} read by ${voiceUsed(speech.model, speech.voice)}, ` +
        `speed ${speech.speed}, language ${speech.language}, ${speech.format}, ${speech.input.length} chars`,
    );
    const synthesizer = context.speech[SPEECH_MODELS[speech.model].api];
    const audio = await attempt.progress.during(
      attempt.call(
        'openai',
        'speech',
        (signal) =>
          synthesizer.synthesize(speech, signal, {
            progress: (share) => void attempt.progress.report(5 + 85 * share),
            log: (line) => void attempt.log(line),
          }),
        { paid: true },
      ),
      { from: 5, to: 90, expectedMs: EXPECTED_BASE_MS + EXPECTED_MS_PER_CHARACTER * speech.input.length },
    );
    return storeResult(context, job, attempt, audio.bytes, audio.mimeType);
  };
}

/** The recorded request as the speech clients read it; older records carry no model or format. */
function speechInputOf(request: RequestByKind['speech'], modelInUse: SpeechModel): SpeechInput {
  return {
    input: request.input,
    voice: request.voice,
    language: request.language,
    speed: request.speed,
    format: request.format ?? SPEECH_DEFAULTS.format,
    model: request.model ?? modelInUse,
  };
}

function retiredModel(): GenerationError {
  return new GenerationError(
    'SPEECH_FAILED',
    'Failed to generate speech: its voice model was retired by the provider. Your token was returned.',
    false,
  );
}
