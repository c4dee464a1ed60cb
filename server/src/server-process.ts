import { describeRedisEndpoint, describeTracing } from '@mediagen/core';
import type { TracingHandle } from '@mediagen/core/tracing-sdk';
import { ConfigError, loadConfig, type ServerConfig } from './config';
import { buildApp } from './app';

/** The API process: config, build, listen, graceful shutdown on SIGTERM/SIGINT (the entry is main.ts). */
export async function runServer(tracing: TracingHandle): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }

  const app = await buildApp(config).catch((error: unknown) => {
    console.error(`The server could not start (is Redis reachable at ${describeRedisEndpoint(config.redis)}?):`, error);
    process.exit(1);
  });

  let shuttingDown = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (shuttingDown) return;
      shuttingDown = true;
      app.log.info({ signal }, 'shutting down');
      app
        .close()
        .then(() => tracing.shutdown())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }

  if (tracing.settings !== null) app.log.info(describeTracing(tracing.settings));
  await app.listen({ port: config.port, host: config.host });
}
