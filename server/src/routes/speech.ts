import type { FastifyPluginAsync } from 'fastify';
import { SPEECH_MODELS, speechModelInfoSchema, type SpeechModelInfo } from '@mediagen/shared';
import { commonErrorResponses, withSharedSchemas } from '../http/schemas';

/** GET /api/speech: the speech model in use, its speeds and the voice each of the spec's voices is read with. */
export const speechRoutes: FastifyPluginAsync = async (app) => {
  const routes = withSharedSchemas(app);
  const { speechModel } = app.config;
  const info: SpeechModelInfo = {
    model: speechModel,
    speed: SPEECH_MODELS[speechModel].speed,
    voices: SPEECH_MODELS[speechModel].voices,
  };
  routes.get(
    '/speech',
    {
      schema: {
        summary: 'The speech model and its voices',
        tags: ['Speech'],
        response: { 200: speechModelInfoSchema, ...commonErrorResponses },
      },
    },
    async () => info,
  );
};
