/**
 * The API process's entry. Tracing starts before the application is imported: the SDK hooks PostgreSQL,
 * Redis and pino as they load (core/src/tracing/tracing-sdk.ts), and does nothing unless configured.
 */
import { TRACED_SERVICES, startTracing } from '@mediagen/core/tracing-sdk';

const tracing = await startTracing(process.env, TRACED_SERVICES.api);
const { runServer } = await import('./server-process');
await runServer(tracing);
