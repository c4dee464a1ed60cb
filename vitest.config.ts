import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['scripts/test/ensure-redis.ts'],
    // Most files wait on processes, sockets and databases rather than the CPU: three at a time keeps both
    // cores busy. Every file has its own database, key prefix, ports and processes.
    maxWorkers: 3,
    // Outside the browser's jsdom, files share their workers' module cache (isolate: false in each
    // project): loading Fastify, BullMQ, firebase-admin and the AWS SDK once per worker instead of once per
    // file saves most of a run's CPU. No file keeps state in a module it shares.
    projects: [
      { test: { name: 'shared', root: 'shared', isolate: false, include: ['test/**/*.test.ts'] } },
      { test: { name: 'core', root: 'core', isolate: false, include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'simulator',
          root: 'simulator',
          isolate: false,
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
        },
      },
      { test: { name: 'worker', root: 'worker', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'ops', root: 'ops', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: { name: 'scripts', root: 'scripts', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 30_000 },
      },
      'server/vitest.config.ts',
      'client/vitest.config.ts',
      // The client's build and dev server configuration, in Node (the client's own tests run in jsdom).
      { test: { name: 'client-build', root: 'client', include: ['vite/**/*.test.ts'], testTimeout: 30_000 } },
      'e2e/vitest.config.ts',
      'faults/vitest.config.ts',
    ],
  },
});
