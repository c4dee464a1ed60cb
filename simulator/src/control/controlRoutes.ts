import type { FastifyPluginAsync } from 'fastify';
import type { FaultBook } from '../faults/faultBook';
import { InvalidFaultRuleError, parseFaultRule } from '../faults/parseFaultRule';
import type { VideoTaskStore } from '../minimax/videoTaskStore';
import type { RealtimeSessionLog } from '../openai/realtime/realtimeSessionLog';
import type { ImageRequestLog } from '../stability/imageRequestLog';
import type { StatsCounter } from '../stats';
import type { ImageRequestRecord, StableImageRequestRecord } from '../types';
import { describeRequestError } from '../requestError';

interface ControlRoutesDeps {
  faults: FaultBook;
  stats: StatsCounter;
  realtimeLog: RealtimeSessionLog;
  imageRequests: ImageRequestLog<ImageRequestRecord>;
  stableImageRequests: ImageRequestLog<StableImageRequestRecord>;
  videoTasks: Pick<VideoTaskStore, 'requested' | 'clearRequests'>;
  /** Forgets every key's recent requests and lockout. */
  resetLimits(): void;
  /** The Realtime API's TLS port and certificate, once it listens. */
  secureListener(): { port: number; certificate: string } | undefined;
}

/** The simulator's own API under /__sim, for tests and scripts to set faults and read counters. */
export function controlRoutes({
  faults,
  stats,
  realtimeLog,
  imageRequests,
  stableImageRequests,
  videoTasks,
  resetLimits,
  secureListener,
}: ControlRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      const { statusCode, message } = describeRequestError(error);
      return reply.code(error instanceof InvalidFaultRuleError ? 400 : statusCode).send({ error: message });
    });

    app.post('/__sim/faults', async (request, reply) => {
      faults.add(parseFaultRule(request.body));
      return reply.code(204).send();
    });

    app.delete('/__sim/faults', async (_request, reply) => {
      faults.clear();
      return reply.code(204).send();
    });

    app.get('/__sim/stats', async () => stats.snapshot());

    app.get('/__sim/realtime/sessions', async () => realtimeLog.list());

    app.get('/__sim/stability/requests', async () => imageRequests.list());
    app.get('/__sim/stability/v2beta/requests', async () => stableImageRequests.list());
    app.get('/__sim/video/tasks', async () => videoTasks.requested());

    // A development worker finds the Realtime API here: the port to connect to and the certificate to trust.
    app.get('/__sim/tls', async (_request, reply) => {
      const listener = secureListener();
      if (listener === undefined) {
        return reply
          .code(404)
          .send({ error: 'the simulator has no TLS listener: it was started without a certificate' });
      }
      return listener;
    });

    app.post('/__sim/reset', async (_request, reply) => {
      faults.clear();
      stats.reset();
      realtimeLog.clear();
      imageRequests.clear();
      stableImageRequests.clear();
      videoTasks.clearRequests();
      resetLimits();
      return reply.code(204).send();
    });
  };
}
