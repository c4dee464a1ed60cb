import { trace, type Attributes, type Context, type Link, type SpanKind } from '@opentelemetry/api';
import { SamplingDecision, type ReadableSpan, type Sampler, type SamplingResult } from '@opentelemetry/sdk-trace';
import { SPAN_ATTRIBUTES } from './spans';

/**
 * BullMQ's own housekeeping, traced when its `telemetry` option is set: a worker waiting for jobs would
 * start a trace of its own every second per queue (and another per stalled-jobs check), none about a
 * generation. A job's run is traced from the context the job carries, not from these.
 */
const QUEUE_HOUSEKEEPING = /^(getNextJob|moveStalledJobsToWait|startStalledCheckTimer) /;

/**
 * Decides as `inner` does, and gives every span started under a span of a generation (spans.ts,
 * tagGeneration) that generation's id: PostgreSQL, Redis, HTTP and BullMQ spans too, which their
 * instrumentations start without it. A sampler may add attributes to the spans it keeps, and it is the one
 * hook every span passes through first. It also leaves out the queue's housekeeping.
 */
export class GenerationSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(
    parent: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (trace.getSpan(parent) === undefined && QUEUE_HOUSEKEEPING.test(name)) {
      return { decision: SamplingDecision.NOT_RECORD };
    }
    const result = this.inner.shouldSample(parent, traceId, name, kind, attributes, links);
    // This process's spans are the SDK's own, which can be read; a parent from another process cannot.
    const id = (trace.getSpan(parent) as Partial<ReadableSpan> | undefined)?.attributes?.[SPAN_ATTRIBUTES.generationId];
    if (typeof id !== 'string') return result;
    return { ...result, attributes: { ...result.attributes, [SPAN_ATTRIBUTES.generationId]: id } };
  }

  toString(): string {
    return `GenerationSampler{${this.inner.toString()}}`;
  }
}
