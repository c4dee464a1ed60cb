import { InvalidFaultRuleError, parseFaultRule } from './faults/parseFaultRule';
import type { StripeOptions } from './stripe/stripeStandIn';
import {
  DOCUMENTED_RATE_LIMITS,
  RATE_LIMITED_PROVIDERS,
  type FaultRule,
  type RateLimits,
  type SimulatorOptions,
} from './types';

export interface SimulatorEnv {
  port: number;
  host: string;
  options: SimulatorOptions;
}

export class InvalidEnvError extends Error {
  override name = 'InvalidEnvError';
}

type Env = Record<string, string | undefined>;

/** Reads the SIMULATOR_* variables, naming the variable at fault when one is unusable. */
export function readSimulatorEnv(env: Env): SimulatorEnv {
  return {
    port: readInteger(env, 'SIMULATOR_PORT', 4010, 0, 65_535),
    host: env.SIMULATOR_HOST || '127.0.0.1',
    options: {
      latencyMs: readInteger(env, 'SIMULATOR_LATENCY_MS', 0),
      videoQueueingMs: readInteger(env, 'SIMULATOR_VIDEO_QUEUEING_MS', 1000),
      videoProcessingMs: readInteger(env, 'SIMULATOR_VIDEO_PROCESSING_MS', 3000),
      faults: readFaults(env, 'SIMULATOR_FAULTS'),
      rateLimits: readRateLimits(env, 'SIMULATOR_RATE_LIMITS'),
      tlsPort: readInteger(env, 'SIMULATOR_TLS_PORT', 4011, 0, 65_535),
      stripe: readStripe(env),
      logger: true,
    },
  };
}

/** The Stripe stand-in's webhook endpoint; the secret is the one the server verifies with. */
function readStripe(env: Env): StripeOptions {
  const webhookUrl = env.STRIPE_WEBHOOK_URL?.trim() || undefined;
  if (webhookUrl !== undefined && !(URL.canParse(webhookUrl) && /^https?:\/\//.test(webhookUrl))) {
    throw new InvalidEnvError(`STRIPE_WEBHOOK_URL must be an http(s) URL; got ${JSON.stringify(webhookUrl)}`);
  }
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (webhookSecret !== undefined && !webhookSecret.startsWith('whsec_')) {
    throw new InvalidEnvError('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  }
  return {
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
  };
}

function readInteger(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidEnvError(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
  }
  return value;
}

function readFaults(env: Env, name: string): FaultRule[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidEnvError(`${name} must be a JSON array of fault rules; it is not valid JSON`);
  }
  if (!Array.isArray(parsed)) throw new InvalidEnvError(`${name} must be a JSON array of fault rules`);
  return parsed.map((rule, index) => {
    try {
      return parseFaultRule(rule);
    } catch (error) {
      if (!(error instanceof InvalidFaultRuleError)) throw error;
      throw new InvalidEnvError(`${name}[${index}]: ${error.message}`);
    }
  });
}

/**
 * `documented` (the default: Stability's 150 per 10 s, 60 s lockout), `off`, or a JSON object such as
 * `{"stability":{"max":150,"windowMs":10000,"lockoutMs":60000},"minimax":{"max":20,"windowMs":60000,"lockoutMs":0}}`.
 */
function readRateLimits(env: Env, name: string): RateLimits | 'off' {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === 'documented') return DOCUMENTED_RATE_LIMITS;
  if (raw === 'off') return 'off';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidEnvError(`${name} must be documented, off, or a JSON object of limits; it is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidEnvError(`${name} must be documented, off, or a JSON object of limits`);
  }
  const limits: RateLimits = {};
  for (const [provider, rule] of Object.entries(parsed)) {
    const known = RATE_LIMITED_PROVIDERS.find((candidate) => candidate === provider);
    if (known === undefined) {
      throw new InvalidEnvError(`${name}: unknown provider ${provider}; use ${RATE_LIMITED_PROVIDERS.join(', ')}`);
    }
    const { max, windowMs, lockoutMs = 0 } = (rule ?? {}) as Record<string, unknown>;
    const positive = (value: unknown) => Number.isInteger(value) && (value as number) >= 1;
    if (!positive(max) || !positive(windowMs) || !Number.isInteger(lockoutMs) || (lockoutMs as number) < 0) {
      throw new InvalidEnvError(`${name}.${provider}: needs integers max >= 1, windowMs >= 1, lockoutMs >= 0`);
    }
    limits[known] = { max: max as number, windowMs: windowMs as number, lockoutMs: lockoutMs as number };
  }
  return limits;
}
