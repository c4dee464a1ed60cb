import type { FastifyPluginAsync } from 'fastify';
import { hasBearerToken } from '../bearerToken';
import type { ProviderGate } from '../faults/providerGate';
import { missingApiKeyError, openAiError, speechFaultReplies } from './openaiErrors';
import { synthesizeSpeech } from './synthesizeSpeech';
import { isSpeechRequestProblem, validateSpeechRequest } from './validateSpeechRequest';
import { describeRequestError } from '../requestError';

/**
 * OpenAI POST /v1/audio/speech. Every response_format gets WAV with Content-Type audio/wav: Node has no
 * MP3 encoder and the client stores whatever Content-Type says.
 */
export function openAiRoutes(gate: ProviderGate): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      const { statusCode: status, message } = describeRequestError(error);
      if (status >= 500) return reply.code(500).send(speechFaultReplies.serverError());
      return reply.code(status).send(openAiError(message, 'invalid_request_error'));
    });

    app.post(
      '/v1/audio/speech',
      { onRequest: gate.guard('speech', speechFaultReplies, 'openai') },
      async (request, reply) => {
        if (!hasBearerToken(request)) return reply.code(401).send(missingApiKeyError());
        const parsed = validateSpeechRequest(request.body);
        if (isSpeechRequestProblem(parsed)) {
          return reply.code(400).send(openAiError(parsed.message, 'invalid_request_error', parsed.param, parsed.code));
        }
        const audio = await synthesizeSpeech(parsed);
        return reply.type('audio/wav').send(audio);
      },
    );
  };
}
