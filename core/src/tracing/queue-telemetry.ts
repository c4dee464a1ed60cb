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
 * The active context as BullMQ keeps it in a job (`opts.telemetry.metadata`). Jobs added together in one
 * `addBulk` would otherwise all carry the context of whichever submission sent the batch.
 */
export function jobTraceMetadata(): string | undefined {
  return queueTelemetry()?.contextManager.getMetadata(context.active());
}
