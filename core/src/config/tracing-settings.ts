import { z } from 'zod';
import { EnvReader, type Env } from './env-reader';

/**
 * Tracing is configured with OpenTelemetry's own variables (the SDK reads them itself); this module only
 * decides whether it is on and refuses values the SDK would ignore or misread, so a typo fails the start
 * instead of silently sending nothing.
 */
export interface TracingSettings {
  /** Where spans go (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
  protocol: OtlpProtocol;
  /** OTEL_TRACES_SAMPLER; `parentbased_*` follow the caller's choice when a request arrives with a trace. */
  sampler: TracesSampler;
  /** OTEL_TRACES_SAMPLER_ARG: the share of new traces kept (1 for the `always_on` samplers). */
  sampleRatio: number;
  /** OTEL_SERVICE_NAME, else the process's own (`mediagen-api`, `mediagen-worker`). */
  serviceName: string;
}

/** The service names spans carry unless OTEL_SERVICE_NAME says otherwise. */
export const TRACED_SERVICES = { api: 'mediagen-api', worker: 'mediagen-worker' } as const;

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The samplers that keep a share of traces by OTEL_TRACES_SAMPLER_ARG, or all of them. */
export const TRACES_SAMPLERS = [
  'parentbased_traceidratio',
  'traceidratio',
  'parentbased_always_on',
  'always_on',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

const endpointSchema = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
const ratioSchema = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?)$/, { error: 'must be a number from 0 to 1' })
  .transform(Number);

/**
 * Null when tracing is off: no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Then the
 * SDK is not loaded at all (tracing-sdk.ts) and no span, header or job field is made.
 */
export function readTracingSettings(reader: EnvReader, defaultServiceName: string): TracingSettings | null {
  const disabled = reader.read('OTEL_SDK_DISABLED', z.enum(['true', 'false']), 'false') === 'true';
  const exporter = reader.read('OTEL_TRACES_EXPORTER', z.enum(['otlp', 'none'], { error: 'must be otlp or none' }));
  const endpoint =
    reader.read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', endpointSchema) ??
    reader.read('OTEL_EXPORTER_OTLP_ENDPOINT', endpointSchema);
  const protocolSchema = z.enum(OTLP_PROTOCOLS, { error: `must be one of ${OTLP_PROTOCOLS.join(', ')}` });
  const protocol =
    reader.read('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', protocolSchema) ??
    reader.read('OTEL_EXPORTER_OTLP_PROTOCOL', protocolSchema, 'http/protobuf');
  // Unset, ours rather than the SDK's parentbased_always_on: the ratio setting then works on its own.
  const sampler = reader.read(
    'OTEL_TRACES_SAMPLER',
    z.enum(TRACES_SAMPLERS, { error: `must be one of ${TRACES_SAMPLERS.join(', ')}` }),
    'parentbased_traceidratio',
  );
  const ratio = reader.read('OTEL_TRACES_SAMPLER_ARG', ratioSchema, '1');
  const serviceName = reader.raw('OTEL_SERVICE_NAME') ?? defaultServiceName;
  if (disabled || exporter === 'none' || endpoint === undefined) return null;
  const chosen = sampler ?? 'parentbased_traceidratio';
  const keepsAll = chosen === 'always_on' || chosen === 'parentbased_always_on';
  return {
    endpoint,
    protocol: protocol ?? 'http/protobuf',
    sampler: chosen,
    sampleRatio: keepsAll ? 1 : (ratio ?? 1),
    serviceName,
  };
}

/** For the start-up line: where spans go (the receiver's origin: a path or a userinfo may hold a key). */
export function describeTracing(settings: TracingSettings): string {
  const share = settings.sampleRatio === 1 ? 'every' : `${+(settings.sampleRatio * 100).toFixed(2)} % of`;
  return `tracing as ${settings.serviceName} to ${new URL(settings.endpoint).origin} (${settings.protocol}), ${share} new trace${settings.sampleRatio === 1 ? '' : 's'}`;
}

/**
 * The same reading for the process's first module (tracing-sdk.ts), before its configuration is loaded:
 * null when off or when a setting is wrong, which the configuration then reports as it refuses to start.
 */
export function tracingSettingsOf(env: Env, defaultServiceName: string): TracingSettings | null {
  const reader = new EnvReader(env);
  const settings = readTracingSettings(reader, defaultServiceName);
  try {
    reader.finish('tracing');
  } catch {
    return null;
  }
  return settings;
}
