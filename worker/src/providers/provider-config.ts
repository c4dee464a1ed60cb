import { z } from 'zod';
import { MODE_VARIABLE, wholeNumber, type EnvReader } from '@mediagen/core';
import {
  DEFAULT_STABILITY_ENGINE,
  BASE_VIDEO_MODEL_IDS,
  MINIMAX_VIDEO_MODEL_ALIASES,
  MINIMAX_VIDEO_MODEL_IDS,
  STABILITY_ENGINES,
  VIDEO_MODEL,
  type GenerationKind,
  isMiniMaxVideoModel,
  type MiniMaxVideoModel,
  type StabilityEngine,
} from '@mediagen/shared';
import type { MiniMaxConfig } from './minimax-client';
import type { ProviderName } from './provider-calls';
import type { ProviderRateLimit } from './provider-rate-limiter';

/** MiniMax keys are regional: a key used on the other region's host is refused as an invalid api key. */
export const MINIMAX_HOSTS = {
  global: 'https://api.minimax.io/v1',
  mainland: 'https://api.minimaxi.com/v1',
} as const;

/** Stability's documented limit, the same for every account: 150 requests per 10 s, then 60 s locked out. */
const STABILITY_DOCUMENTED_LIMIT = '150/10000/60000';
const DEFAULT_SIMULATOR_URL = 'http://127.0.0.1:4010';

/**
 * `max/windowMs[/lockoutMs]`, or `off`: at most `max` calls in any `windowMs` across all workers, and
 * after a provider 429 none for `lockoutMs`.
 */
const rateLimitSetting = z
  .string()
  .regex(/^(off|\d+\/\d+(\/\d+)?)$/, 'must be off or look like max/windowMs[/lockoutMs], e.g. 150/10000/60000')
  .transform((value): ProviderRateLimit | null => {
    if (value === 'off') return null;
    const [max, windowMs, lockoutMs = 0] = value.split('/').map(Number) as [number, number, number?];
    return { max, windowMs, lockoutMs };
  })
  .refine((limit) => limit === null || (limit.max >= 1 && limit.windowMs >= 1), 'max and windowMs must be at least 1');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''));

/**
 * The base video model (the Free plan's, and every request recorded before video models had plans): a
 * first-generation model of MiniMax's published text-to-video list, or an older name of one (read as its
 * published name). Anything else is refused at start-up: a name MiniMax does not publish would fail every
 * video's start, and Hailuo is chosen per plan (shared/src/video-models.ts), not here.
 */
const baseVideoModel = z
  .string()
  .transform((name) => MINIMAX_VIDEO_MODEL_ALIASES[name] ?? name)
  .refine(isMiniMaxVideoModel, {
    error: `must be one of MiniMax's published text-to-video models: ${MINIMAX_VIDEO_MODEL_IDS.join(', ')} (video-01 is read as T2V-01)`,
  })
  .transform((name) => name as MiniMaxVideoModel)
  .refine((name) => BASE_VIDEO_MODEL_IDS.includes(name), {
    error: `must be a base model, ${BASE_VIDEO_MODEL_IDS.join(' or ')}: MiniMax-Hailuo-2.3 is what the Pro and Enterprise plans make their videos with`,
  });

export interface ProviderEndpoint {
  baseUrl: string;
  apiKey: string;
  simulated: boolean;
}

export interface ProviderSettings {
  stability: ProviderEndpoint & { engine: StabilityEngine; timeoutMs: number };
  minimax: ProviderEndpoint & {
    groupId: string | undefined;
    /** The base model (MINIMAX_VIDEO_MODEL): what a request made with `T2V-01`, or with no model, is sent as. */
    model: MiniMaxVideoModel;
    /** The spec's start, status and file budgets (VIDEO_TIMEOUTS_MS) unless set in code. */
    timeouts?: MiniMaxConfig['timeouts'];
  };
  /** The speech endpoint and the Realtime API: the same host and key. */
  openai: ProviderEndpoint;
  /** SIMULATOR_URL: the stand-in of every provider without a key (development only). */
  simulatorUrl: string;
  /**
   * SIMULATOR_TLS_URL: where its Realtime API's TLS port is reached, when not at the SIMULATOR_URL host
   * and the port it announces (a forward between hosts); unset, the announced port is used.
   */
  simulatorTlsUrl: string | undefined;
  rateLimits: { limits: Partial<Record<ProviderName, ProviderRateLimit>>; marginMs: number };
  /** `host:port`s of local stand-ins (the simulator, a MINIMAX_API_BASE on this machine); development only. */
  developmentHosts: string[];
}

/** The provider key each kind needs, outside development. */
const KEY_OF_KIND = {
  image: 'STABILITY_API_KEY',
  video: 'MINIMAX_API_KEY',
  speech: 'OPENAI_API_KEY',
} as const satisfies Record<GenerationKind, string>;

/**
 * The providers' settings. In development a provider without a key is served by the simulator, so a fresh
 * clone runs end to end offline; in production every kind the worker serves needs its provider's key, and
 * the simulator is refused.
 */
export function readProviderSettings(
  reader: EnvReader,
  { development, kinds }: { development: boolean; kinds: readonly GenerationKind[] },
): ProviderSettings {
  const key = (kind: GenerationKind) => {
    const name = KEY_OF_KIND[kind];
    const value = reader.raw(name);
    if (value === undefined && kinds.includes(kind) && !development && !reader.reported(name)) {
      reader.problem(
        `Missing required environment variable: ${name} (this worker serves ${kind}; ` +
          `the provider simulator is only used when ${MODE_VARIABLE}=development)`,
      );
    }
    return value;
  };
  const simulator = reader.read('SIMULATOR_URL', httpUrl, DEFAULT_SIMULATOR_URL) ?? DEFAULT_SIMULATOR_URL;
  const simulatorTlsUrl = reader.read('SIMULATOR_TLS_URL', httpUrl);
  for (const name of ['SIMULATOR_URL', 'SIMULATOR_TLS_URL']) {
    if (!development && reader.raw(name) !== undefined) {
      reader.problem(`${name} must not be set unless ${MODE_VARIABLE}=development (the simulator is a stand-in)`);
    }
  }
  const endpoint = (apiKey: string | undefined, realBase: string, simulatorBase: string): ProviderEndpoint =>
    apiKey === undefined
      ? { baseUrl: simulatorBase, apiKey: 'simulator', simulated: true }
      : { baseUrl: realBase, apiKey, simulated: false };

  const region =
    reader.read('MINIMAX_REGION', z.enum(['global', 'mainland'], { error: 'must be global or mainland' }), 'global') ??
    'global';
  // Overrides the region's host (a proxy, or a stand-in in tests).
  const minimaxBaseOverride = reader.read('MINIMAX_API_BASE', httpUrl);
  const limits: Partial<Record<ProviderName, ProviderRateLimit>> = {};
  const limit = (provider: ProviderName, name: string, fallback?: string) => {
    const value = reader.read(name, rateLimitSetting, fallback);
    if (value) limits[provider] = value;
  };
  limit('stability', 'STABILITY_RATE_LIMIT', STABILITY_DOCUMENTED_LIMIT);
  limit('minimax', 'MINIMAX_RATE_LIMIT');
  limit('openai', 'OPENAI_RATE_LIMIT');

  return {
    stability: {
      ...endpoint(key('image'), reader.read('STABILITY_API_BASE', httpUrl, 'https://api.stability.ai')!, simulator),
      engine:
        reader.read(
          'STABILITY_ENGINE',
          z.enum(STABILITY_ENGINES, {
            error: `must be one of ${STABILITY_ENGINES.join(', ')} (Stability's other v1 engines answer 404)`,
          }),
          DEFAULT_STABILITY_ENGINE,
        ) ?? DEFAULT_STABILITY_ENGINE,
      timeoutMs: reader.read('STABILITY_TIMEOUT_MS', wholeNumber(1), '120000') ?? 120_000,
    },
    minimax: {
      ...endpoint(key('video'), minimaxBaseOverride ?? MINIMAX_HOSTS[region], `${simulator}/v1`),
      groupId: reader.raw('MINIMAX_GROUP_ID'),
      model: reader.read('MINIMAX_VIDEO_MODEL', baseVideoModel, VIDEO_MODEL) ?? VIDEO_MODEL,
    },
    openai: endpoint(
      key('speech'),
      reader.read('OPENAI_BASE_URL', httpUrl, 'https://api.openai.com/v1')!,
      `${simulator}/v1`,
    ),
    simulatorUrl: simulator,
    simulatorTlsUrl,
    rateLimits: { limits, marginMs: reader.read('PROVIDER_RATE_MARGIN_MS', wholeNumber(0), '400') ?? 400 },
    developmentHosts: development
      ? [
          ...new Set([
            new URL(simulator).host,
            ...(minimaxBaseOverride === undefined ? [] : [new URL(minimaxBaseOverride).host]),
          ]),
        ]
      : [],
  };
}
