/**
 * Whether this process started the tracing SDK (tracing-sdk.ts). Kept on the global object, not in a
 * module variable: the entry that starts the SDK and the application it then imports may be separate
 * module instances (two bundles, or tsx beside a bundle), and both must agree.
 */
const STARTED = Symbol.for('mediagen.tracing.started');

export function markTracingStarted(): void {
  (globalThis as Record<symbol, unknown>)[STARTED] = true;
}

/** False unless the SDK runs: then no span, job field or context is made at all. */
export function tracingStarted(): boolean {
  return (globalThis as Record<symbol, unknown>)[STARTED] === true;
}
