import type { FastifyPluginAsync } from 'fastify';
import { hasBearerToken } from '../bearerToken';
import type { ProviderGate } from '../faults/providerGate';
import { describeRequestError } from '../requestError';
import { ENGINES, sizeProblem } from './engines';
import { renderArtifacts } from './renderArtifacts';
import { SIMULATED_CREDITS, balanceFaultReplies, imageFaultReplies, stabilityError } from './stabilityErrors';
import type { ImageRequestRecord } from '../types';
import type { ImageRequestLog } from './imageRequestLog';
import { isTextToImageProblem, validateTextToImage } from './validateTextToImage';

/**
 * Stability AI v1: POST /v1/generation/:engineId/text-to-image, for the engines still served, and
 * GET /v1/user/balance, the organization's credits.
 */
export function stabilityRoutes(
  gate: ProviderGate,
  imageRequests: ImageRequestLog<ImageRequestRecord>,
): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      const { statusCode: status, message } = describeRequestError(error);
      if (status >= 500) return reply.code(500).send(imageFaultReplies.serverError());
      return reply.code(status).send(stabilityError('bad_request', message));
    });

    app.post<{ Params: { engineId: string } }>(
      '/v1/generation/:engineId/text-to-image',
      { onRequest: gate.guard('image', imageFaultReplies, 'stability') },
      async (request, reply) => {
        if (!hasBearerToken(request)) {
          return reply.code(401).send(stabilityError('unauthorized', 'missing authorization header'));
        }
        const { engineId } = request.params;
        if (!ENGINES.includes(engineId)) {
          return reply.code(404).send(stabilityError('not_found', `engine ${engineId} not found`));
        }
        const parsed = validateTextToImage(request.body);
        if (isTextToImageProblem(parsed)) return reply.code(400).send(stabilityError(parsed.name, parsed.message));
        const size = sizeProblem(engineId, parsed.width, parsed.height);
        if (size !== undefined) return reply.code(400).send(stabilityError(size.name, size.message));
        imageRequests.add({ engine: engineId, ...parsed });
        const fault = gate.routeFaultOf(request);
        const filtered = (sample: number) =>
          fault?.fault === 'content-filtered' && (fault.samples === undefined || fault.samples.includes(sample));
        return { artifacts: renderArtifacts(parsed, (sample) => (filtered(sample) ? 'CONTENT_FILTERED' : 'SUCCESS')) };
      },
    );

    app.get(
      '/v1/user/balance',
      { onRequest: gate.guard('balance', balanceFaultReplies, 'stability') },
      (request, reply) => {
        if (!hasBearerToken(request)) {
          return reply.code(401).send(stabilityError('unauthorized', 'missing authorization header'));
        }
        return { credits: SIMULATED_CREDITS };
      },
    );
  };
}
