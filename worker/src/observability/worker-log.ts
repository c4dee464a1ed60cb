import { activeTraceIds } from '@mediagen/core';

/**
 * A line of the worker's log. Written inside a traced run, it ends with the run's trace and span ids,
 * named as the API's pino lines name them, so one search finds a generation's lines in both processes.
 */
export function workerLine(message: string): string {
  const ids = activeTraceIds();
  return ids === null ? `[worker] ${message}` : `[worker] ${message} trace_id=${ids.traceId} span_id=${ids.spanId}`;
}
