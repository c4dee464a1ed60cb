import type { FastifyPluginAsync } from 'fastify';
import type { FaultBook } from '../faults/faultBook';
import { InvalidFaultRuleError, parseFaultRule } from '../faults/parseFaultRule';
import type { StatsCounter } from '../stats';
import { describeRequestError } from '../requestError';

interface ControlRoutesDeps {
  faults: FaultBook;
  stats: StatsCounter;
  /** Forgets every key's recent requests and lockout. */
  resetLimits(): void;
}

/** The simulator's own API under /__sim, for tests and scripts to set faults and read counters. */
export function controlRoutes({ faults, stats, resetLimits }: ControlRoutesDeps): FastifyPluginAsync {
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

    app.post('/__sim/reset', async (_request, reply) => {
      faults.clear();
      stats.reset();
      resetLimits();
      return reply.code(204).send();
    });
  };
}
