import { context } from '@opentelemetry/api';
import { BullMQOtel } from 'bullmq-otel';
import { tracingStarted } from './tracing-state';

let telemetry: BullMQOtel | undefined;

/**
 * BullMQ's `telemetry` option for our queues and workers while tracing runs, else undefined (BullMQ then
 * makes no span and writes no trace context into jobs). A job carries the context it was added in, and
 * a worker's run of it (a retry, a delayed poll, a takeover after a crash) continues that trace.
 */
export function queueTelemetry(): BullMQOtel | undefined {
  if (!tracingStarted()) return undefined;
  telemetry ??= new BullMQOtel({ tracerName: 'mediagen-queue' });
  return telemetry;
}

/**
 * The context a job is to carry, as BullMQ keeps it (`opts.telemetry.metadata`): the active one, so that jobs
 * added together in one `addBulk` do not all carry the context of whichever submission sent the batch. A
 * process that does not trace (the queue CLI) gives a requeued job its generation's kept traceparent, so
 * the workers' runs of it still continue the generation's trace.
 */
export function jobTraceMetadata(kept?: string | null): string | undefined {
  const telemetry = queueTelemetry();
  if (telemetry !== undefined) return telemetry.contextManager.getMetadata(context.active());
  return kept == null ? undefined : JSON.stringify({ traceparent: kept });
}
