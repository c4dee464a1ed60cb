/**
 * The OpenTelemetry SDK of the API and the worker, started by their entry (`main.ts`) before it imports
 * anything it traces: PostgreSQL, Redis and pino are hooked as they load, so the application is imported
 * after this ran. Off unless configured (config/tracing-settings.ts); off, nothing here loads but the
 * settings, and no hook is installed.
 *
 * What a span may hold: never a prompt, a key, a signed URL or an email. Redis spans carry the command
 * name only (BullMQ's scripts take job data as arguments), HTTP client spans the origin only (a MiniMax
 * download link is signed in its query), PostgreSQL spans the statement with its placeholders, never the
 * values; our own spans carry ids, kinds, counts and outcomes.
 */
import { tracingSettingsOf, type TracingSettings } from '../config/tracing-settings';

export { TRACED_SERVICES } from '../config/tracing-settings';
import type { Env } from '../config/env-reader';
import { markTracingStarted } from './tracing-state';

export interface TracingHandle {
  settings: TracingSettings | null;
  /** Sends the spans still buffered; the process calls it before it exits. */
  shutdown(): Promise<void>;
}

const OFF: TracingHandle = { settings: null, shutdown: async () => undefined };

/** How long a stopping process waits for its last spans to be sent. */
const SHUTDOWN_FLUSH_MS = 5000;

/** Where an HTTP client span's URL would go: the origin alone, the path and query said to be left out. */
const REDACTED = '[redacted]';

export async function startTracing(env: Env, defaultServiceName: string): Promise<TracingHandle> {
  const settings = tracingSettingsOf(env, defaultServiceName);
  if (settings === null) return OFF;

  // ES modules are hooked through import-in-the-middle's loader, told which modules to wrap (only those).
  const { register } = await import('node:module');
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [
    { NodeSDK },
    trace,
    { GenerationSampler },
    { IORedisInstrumentation },
    { PgInstrumentation },
    { UndiciInstrumentation },
    pino,
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
    import('./generation-sampler'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pino'),
  ]);
  const ratio = new trace.TraceIdRatioBasedSampler(settings.sampleRatio);
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    sampler: new GenerationSampler(
      settings.sampler.startsWith('parentbased_') ? new trace.ParentBasedSampler({ root: ratio }) : ratio,
    ),
    // Traces only: metrics stay Prometheus's (/metrics), and logs stay on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      // A span per query, not another per connection taken from the pool.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, ignoreConnectSpans: true }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: (request) => ({
          'url.full': `${request.origin}/${REDACTED}`,
          'url.path': REDACTED,
          'url.query': REDACTED,
        }),
      }),
      // Log lines written inside a span carry trace_id and span_id; the lines themselves stay on stdout.
      new pino.PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  markTracingStarted();
  return {
    settings,
    // A backend out of reach must not hold a stopping process past its grace period: what is not sent by
    // then is dropped.
    shutdown: () =>
      Promise.race([
        sdk.shutdown().catch(() => undefined),
        new Promise<void>((done) => setTimeout(done, SHUTDOWN_FLUSH_MS).unref()),
      ]),
  };
}
