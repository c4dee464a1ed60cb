import { InvalidFaultRuleError, parseFaultRule } from './faults/parseFaultRule';
import type { FaultRule, SimulatorOptions } from './types';

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
      logger: true,
    },
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
