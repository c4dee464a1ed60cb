/**
 * `pnpm dev`: the whole stack on local defaults (auth emulator, provider simulator, server, worker,
 * client), stopped with Ctrl-C.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_DATABASE_URL } from './lib/postgres';
import { colorPrinter } from './lib/processes';
import { startStack } from './lib/stack';

// A .env beside this README overrides the defaults (see .env.example); every process inherits it.
if (existsSync('.env')) process.loadEnvFile('.env');
const env = process.env;
const sink = colorPrinter();

const stack = await startStack({
  databaseUrl: env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  queuePrefix: env.QUEUE_PREFIX ?? 'mediagen',
  dataDir: env.DATA_DIR ?? '.data',
  projectId: env.FIREBASE_PROJECT_ID ?? 'demo-mediagen',
  ports: {
    server: Number(env.PORT ?? 3000),
    simulator: Number(env.SIMULATOR_PORT ?? 4010),
    simulatorTls: Number(env.SIMULATOR_TLS_PORT ?? 4011),
    emulator: 9099,
    client: Number(env.CLIENT_PORT ?? 5173),
  },
  client: 'dev',
  sink,
}).catch((error: unknown) => {
  console.error(`\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log(`\nMediaGen is running: open ${stack.urls.client}  (API ${stack.urls.api}, Ctrl-C to stop)\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stack.stop().then(() => process.exit(0));
  });
}
