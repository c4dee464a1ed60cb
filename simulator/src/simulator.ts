import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import Fastify from 'fastify';
import { controlRoutes } from './control/controlRoutes';
import { FaultBook } from './faults/faultBook';
import { ProviderGate } from './faults/providerGate';
import { miniMaxRoutes } from './minimax/miniMaxRoutes';
import { VideoTaskStore } from './minimax/videoTaskStore';
import { openAiRoutes } from './openai/openAiRoutes';
import { RealtimeServer } from './openai/realtime/realtimeServer';
import { RealtimeSessionLog } from './openai/realtime/realtimeSessionLog';
import { ImageRequestLog } from './stability/imageRequestLog';
import { stabilityRoutes } from './stability/stabilityRoutes';
import { stableImageRoutes } from './stability/stableImageRoutes';
import { StatsCounter } from './stats';
import { hostedPageRoutes } from './stripe/hostedPageRoutes';
import { stripeApiRoutes } from './stripe/stripeApiRoutes';
import { stripeControlRoutes } from './stripe/stripeControlRoutes';
import { createStripeStandIn } from './stripe/stripeStandIn';
import { DEFAULT_CERTIFICATE_HOSTS, createDevelopmentCertificate } from './tls/development-certificate';
import { KeyRateLimiter } from './limits/keyRateLimiter';
import {
  DOCUMENTED_RATE_LIMITS,
  RATE_LIMITED_PROVIDERS,
  type RateLimitedProvider,
  type RateLimits,
  type Simulator,
  type SimulatorOptions,
  type ImageRequestRecord,
  type StableImageRequestRecord,
} from './types';

const DEFAULTS = {
  latencyMs: 0,
  videoQueueingMs: 1000,
  videoProcessingMs: 3000,
  tlsPort: 0,
  realtimeSpeedup: 200,
} as const;
const VIDEO_FIXTURE = new URL('../fixtures/sample.mp4', import.meta.url);

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const latencyMs = durationOption('latencyMs', options.latencyMs ?? DEFAULTS.latencyMs);
  const queueingMs = durationOption('videoQueueingMs', options.videoQueueingMs ?? DEFAULTS.videoQueueingMs);
  const processingMs = durationOption('videoProcessingMs', options.videoProcessingMs ?? DEFAULTS.videoProcessingMs);
  const tlsPort = portOption('tlsPort', options.tlsPort ?? DEFAULTS.tlsPort);
  const speedup = positiveOption('realtimeSpeedup', options.realtimeSpeedup ?? DEFAULTS.realtimeSpeedup);

  const faults = new FaultBook();
  for (const rule of options.faults ?? []) faults.add(rule);
  const stats = new StatsCounter();
  const hangingSockets = new Set<Socket>();
  const limiters = rateLimiters(options.rateLimits ?? DOCUMENTED_RATE_LIMITS);
  const gate = new ProviderGate({ faults, stats, latencyMs, hangingSockets, limiters });
  const tasks = new VideoTaskStore({ queueingMs, processingMs });
  const realtimeLog = new RealtimeSessionLog();
  const imageRequests = new ImageRequestLog<ImageRequestRecord>();
  const stableImageRequests = new ImageRequestLog<StableImageRequestRecord>();
  // OpenAI's Realtime client connects only with wss://, so the Realtime API has a TLS listener of its own,
  // with the certificate given or one made at listen() for the host it listens on.
  let realtime: RealtimeServer | undefined;
  let certificate: string | undefined;

  // A stand-in closes at once: a client that gave up mid-request (a cancel, a timeout) leaves nothing to wait for.
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  // Stripe's objects live in memory only: stopping the simulator forgets its customers and subscriptions.
  const stripe = createStripeStandIn(options.stripe ?? {}, (message) => app.log.warn(message));
  void app.register(stabilityRoutes(gate, imageRequests));
  void app.register(
    stableImageRoutes({
      gate,
      record: (entry) => stableImageRequests.add(entry),
    }),
  );
  void app.register(
    miniMaxRoutes({ gate, tasks, video: readFileSync(VIDEO_FIXTURE), onTaskCreated: () => stats.countVideoTask() }),
  );
  void app.register(openAiRoutes(gate));
  void app.register(stripeApiRoutes({ gate, account: stripe.account, secretKey: options.stripe?.secretKey }));
  void app.register(hostedPageRoutes(stripe.account));
  void app.register(stripeControlRoutes(stripe.control));
  void app.register(
    controlRoutes({
      faults,
      stats,
      realtimeLog,
      imageRequests,
      stableImageRequests,
      videoTasks: tasks,
      resetLimits: () => Object.values(limiters).forEach((limiter) => limiter.reset()),
      secureListener: () =>
        certificate === undefined || secureAddress === undefined
          ? undefined
          : { port: secureAddress.port, certificate },
    }),
  );

  let url: string | undefined;
  let secureAddress: AddressInfo | undefined;

  return {
    app,
    get url() {
      if (url === undefined) throw new Error('the simulator has no URL until listen() resolves');
      return url;
    },
    get secureUrl() {
      if (secureAddress === undefined) throw new Error('the simulator has no secure URL until listen() resolves');
      return urlOf('https', secureAddress);
    },
    get certificate() {
      if (certificate === undefined) throw new Error('the simulator has no certificate until listen() resolves');
      return certificate;
    },
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${address}`);
      url = urlOf('http', address);
      const tls =
        options.tls ?? (await createDevelopmentCertificate([...new Set([...DEFAULT_CERTIFICATE_HOSTS, host])]));
      realtime = new RealtimeServer({
        tls,
        faults,
        stats,
        latencyMs,
        limiter: limiters.openai,
        log: realtimeLog,
        speedup,
      });
      secureAddress = await realtime.listen(tlsPort, host);
      certificate = tls.cert;
      return url;
    },
    async close() {
      // Hung requests never finish on their own and would hold app.close() open forever.
      for (const socket of hangingSockets) socket.destroy();
      stripe.webhooks.close();
      await Promise.all([app.close(), realtime?.close()]);
    },
    injectFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    stats: () => stats.snapshot(),
    realtimeSessions: () => realtimeLog.list(),
    imageRequests: () => imageRequests.list(),
    stableImageRequests: () => stableImageRequests.list(),
    videoTasks: () => tasks.requested(),
    stripe: stripe.control,
  };
}

function urlOf(scheme: 'http' | 'https', address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
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

function portOption(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new Error(`${name} must be a port from 0 to 65535`);
  }
  return value;
}

function positiveOption(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function durationOption(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number of milliseconds`);
  return value;
}
