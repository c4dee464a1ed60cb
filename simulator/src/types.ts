import type { FastifyInstance } from 'fastify';

export interface SimulatorOptions {
  /** Added to every provider response. Default 0. */
  latencyMs?: number;
  /** How long a video task reports "Queueing". Default 1000. */
  videoQueueingMs?: number;
  /** How long it then reports "Processing" before "Success". Default 3000. */
  videoProcessingMs?: number;
  /** Faults active from the start, in priority order. */
  faults?: FaultRule[];
  logger?: boolean;
}

export const FAULT_KINDS = [
  'http500',
  'http429',
  'hang',
  'drop',
  'fail-status',
  'unknown-status',
  'malformed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const PROVIDER_ROUTES = [
  'image',
  'video.create',
  'video.query',
  'video.file',
  'video.download',
  'speech',
] as const;
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

export interface FaultRule {
  route: ProviderRoute;
  fault: FaultKind;
  /** How many matching requests it affects. Default: every one (Infinity). */
  times?: number;
  /** For http429, sent as the Retry-After header. Default 1. */
  retryAfterSeconds?: number;
  /** For unknown-status, the status to report. Default "Mystery". */
  status?: string;
}

export interface SimulatorStats {
  requests: Record<ProviderRoute, number>;
  videoTasksCreated: number;
}

export interface Simulator {
  app: FastifyInstance;
  /** The base URL; only known once listen() has resolved. */
  readonly url: string;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
  stats(): SimulatorStats;
}
