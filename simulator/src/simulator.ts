import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import Fastify from 'fastify';
import { controlRoutes } from './control/controlRoutes';
import { FaultBook } from './faults/faultBook';
import { ProviderGate } from './faults/providerGate';
import { miniMaxRoutes } from './minimax/miniMaxRoutes';
import { VideoTaskStore } from './minimax/videoTaskStore';
import { openAiRoutes } from './openai/openAiRoutes';
import { stabilityRoutes } from './stability/stabilityRoutes';
import { StatsCounter } from './stats';
import { KeyRateLimiter } from './limits/keyRateLimiter';
import {
  DOCUMENTED_RATE_LIMITS,
  RATE_LIMITED_PROVIDERS,
  type RateLimitedProvider,
  type RateLimits,
  type Simulator,
  type SimulatorOptions,
} from './types';

const DEFAULTS = { latencyMs: 0, videoQueueingMs: 1000, videoProcessingMs: 3000 } as const;
const VIDEO_FIXTURE = new URL('../fixtures/sample.mp4', import.meta.url);

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const latencyMs = durationOption('latencyMs', options.latencyMs ?? DEFAULTS.latencyMs);
  const queueingMs = durationOption('videoQueueingMs', options.videoQueueingMs ?? DEFAULTS.videoQueueingMs);
  const processingMs = durationOption('videoProcessingMs', options.videoProcessingMs ?? DEFAULTS.videoProcessingMs);

  const faults = new FaultBook();
  for (const rule of options.faults ?? []) faults.add(rule);
  const stats = new StatsCounter();
  const hangingSockets = new Set<Socket>();
  const limiters = rateLimiters(options.rateLimits ?? DOCUMENTED_RATE_LIMITS);
  const gate = new ProviderGate({ faults, stats, latencyMs, hangingSockets, limiters });
  const tasks = new VideoTaskStore({ queueingMs, processingMs });

  // A stand-in closes at once: a client that gave up mid-request (a cancel, a timeout) leaves nothing to wait for.
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  void app.register(stabilityRoutes(gate));
  void app.register(
    miniMaxRoutes({ gate, tasks, video: readFileSync(VIDEO_FIXTURE), onTaskCreated: () => stats.countVideoTask() }),
  );
  void app.register(openAiRoutes(gate));
  void app.register(
    controlRoutes({ faults, stats, resetLimits: () => Object.values(limiters).forEach((limiter) => limiter.reset()) }),
  );

  let url: string | undefined;

  return {
    app,
    get url() {
      if (url === undefined) throw new Error('the simulator has no URL until listen() resolves');
      return url;
    },
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${address}`);
      const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      url = `http://${urlHost}:${address.port}`;
      return url;
    },
    async close() {
      // Hung requests never finish on their own and would hold app.close() open forever.
      for (const socket of hangingSockets) socket.destroy();
      await app.close();
    },
    injectFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    stats: () => stats.snapshot(),
  };
}

function rateLimiters(limits: RateLimits | 'off'): Partial<Record<RateLimitedProvider, KeyRateLimiter>> {
  if (limits === 'off') return {};
  return Object.fromEntries(
    RATE_LIMITED_PROVIDERS.filter((provider) => limits[provider] !== undefined).map((provider) => [
      provider,
      new KeyRateLimiter(limits[provider]!),
    ]),
  );
}

function durationOption(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number of milliseconds`);
  return value;
}
