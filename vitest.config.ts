import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['scripts/test/ensure-redis.ts'],
    // Most files wait on processes, sockets and databases rather than the CPU: three at a time keeps both
    // cores busy. Every file has its own database, key prefix, ports and processes.
    maxWorkers: 3,
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['test/**/*.test.ts'] } },
      { test: { name: 'core', root: 'core', include: ['test/**/*.test.ts'] } },
      { test: { name: 'simulator', root: 'simulator', include: ['test/**/*.test.ts', 'src/**/*.test.ts'] } },
      { test: { name: 'worker', root: 'worker', include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'ops', root: 'ops', include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'scripts', root: 'scripts', include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      'server/vitest.config.ts',
      'client/vitest.config.ts',
      // The client's build and dev server configuration, in Node (the client's own tests run in jsdom).
      { test: { name: 'client-build', root: 'client', include: ['vite/**/*.test.ts'], testTimeout: 30_000 } },
      'e2e/vitest.config.ts',
      'faults/vitest.config.ts',
    ],
  },
});
