import {
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  trace,
  type Attributes,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { tracingStarted } from './tracing-state';

/** The attributes our spans share; the generation id is on every span of a generation's trace. */
export const SPAN_ATTRIBUTES = {
  generationId: 'mediagen.generation.id',
  kind: 'mediagen.generation.kind',
  attempt: 'mediagen.job.attempt',
  provider: 'mediagen.provider',
  providerCall: 'mediagen.provider.call',
  model: 'mediagen.provider.model',
  outcome: 'mediagen.outcome',
  status: 'mediagen.generation.status',
  count: 'mediagen.count',
} as const;

export { SpanKind };

const tracer = () => trace.getTracer('mediagen');
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Adds to the span under way (a provider call's answer, a run's attempt); nothing without one. */
export function annotateActiveSpan(attributes: Attributes): void {
  if (tracingStarted()) trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * The work under way is for generation `id`: the span under way says so, and every span started below it
 * inherits the id (generation-sampler.ts), the stores' and the queue's too.
 */
export function tagGeneration(id: string): void {
  annotateActiveSpan({ [SPAN_ATTRIBUTES.generationId]: id });
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  links?: Link[];
  /**
   * A stored traceparent (currentTraceParent) to start under instead of the active span, which is then
   * linked: an operator's retry continues the generation's trace and points at the request that asked.
   */
  parent?: string | null;
}

/**
 * Runs `work` inside a new active span, ended when it settles; a thrown error marks the span failed and
 * goes on. With tracing off, `work` runs as it is, given a span that records nothing.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingStarted()) return work(NO_SPAN);
  const stored = spanContextOf(options.parent);
  const active = trace.getActiveSpan()?.spanContext();
  const links = [...(options.links ?? []), ...(stored !== null && active !== undefined ? [{ context: active }] : [])];
  const parent = stored === null ? context.active() : trace.setSpanContext(context.active(), stored);
  const span = tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    // The error's kind only: a message may quote a provider's answer, and no span may hold what a user wrote.
    const kind = errorKind(error);
    span.setAttribute('error.type', kind);
    span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
    throw error;
  } finally {
    span.end();
  }
}

/** An error's code (GenerationError, ServiceError, a system error) or else its class's name. */
function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'error';
}

/**
 * The active span as a W3C traceparent, kept with a generation so that operators find its trace and later
 * work (the final update, the reconciler) joins or links it; null when there is none or it is not sampled
 * (a trace id no backend holds would send an operator looking for nothing).
 */
export function currentTraceParent(): string | null {
  const span = trace.getActiveSpan();
  if (span === undefined) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  if ((traceFlags & TraceFlags.SAMPLED) === 0 || !trace.isSpanContextValid(span.spanContext())) return null;
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
}

/** The ids of the span under way, for a log line to carry (as pino's lines do in a traced process); null untraced. */
export function activeTraceIds(): { traceId: string; spanId: string } | null {
  if (!tracingStarted()) return null;
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return null;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function spanContextOf(traceParent: string | null | undefined): SpanContext | null {
  const match = traceParent == null ? null : TRACE_PARENT.exec(traceParent);
  if (match === null) return null;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true };
}

/** The trace id of a stored trace parent: what operators search their tracing backend for. */
export function traceIdOf(traceParent: string | null | undefined): string | null {
  return spanContextOf(traceParent)?.traceId ?? null;
}

/** A generation some periodic work changed, by its submission's traceparent (null: not traced). */
export interface TouchedGeneration {
  id: string;
  traceParent: string | null;
}

/**
 * A pass of periodic work (the reconciler, the retention sweep, the priority aging) that changed
 * generations: one span of its own, recorded when the pass is over and linked to each generation's trace.
 * A pass that changed none leaves nothing: a span a minute per worker about nothing would bury the rest.
 */
export function recordPass(
  name: string,
  startedAt: Date,
  touched: readonly TouchedGeneration[],
  attributes: Attributes = {},
): void {
  if (!tracingStarted() || touched.length === 0) return;
  const links = touched.flatMap(({ id, traceParent }) => {
    const linked = spanContextOf(traceParent);
    return linked === null ? [] : [{ context: linked, attributes: { [SPAN_ATTRIBUTES.generationId]: id } }];
  });
  const options = {
    root: true,
    startTime: startedAt,
    links,
    attributes: { [SPAN_ATTRIBUTES.count]: touched.length, ...attributes },
  };
  tracer().startSpan(name, options).end();
}
