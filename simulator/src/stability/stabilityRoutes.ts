import type { FastifyPluginAsync } from 'fastify';
import { hasBearerToken } from '../bearerToken';
import type { ProviderGate } from '../faults/providerGate';
import { renderArtifacts } from './renderArtifacts';
import { imageFaultReplies, stabilityError } from './stabilityErrors';
import { isTextToImageProblem, validateTextToImage } from './validateTextToImage';
import { describeRequestError } from '../requestError';

/** Stability AI v1: POST /v1/generation/:engineId/text-to-image. Any engine id is accepted. */
export function stabilityRoutes(gate: ProviderGate): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      const { statusCode: status, message } = describeRequestError(error);
      if (status >= 500) return reply.code(500).send(imageFaultReplies.serverError());
      return reply.code(status).send(stabilityError('bad_request', message));
    });

    app.post(
      '/v1/generation/:engineId/text-to-image',
      { onRequest: gate.guard('image', imageFaultReplies) },
      async (request, reply) => {
        if (!hasBearerToken(request)) {
          return reply.code(401).send(stabilityError('unauthorized', 'missing authorization header'));
        }
        const parsed = validateTextToImage(request.body);
        if (isTextToImageProblem(parsed)) return reply.code(400).send(stabilityError(parsed.name, parsed.message));
        return { artifacts: renderArtifacts(parsed) };
      },
    );
  };
}
