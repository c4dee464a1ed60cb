import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './scripts/test/longest-first-sequencer';

export default defineConfig({
  test: {
    globalSetup: ['scripts/test/ensure-redis.ts', 'scripts/test/template-database.ts'],
    // Most files wait on processes, sockets and databases rather than the CPU: three at a time keeps both
    // cores busy beside the check and the browser tests (four made timing-bound tests fail there). Every
    // file has its own database, key prefix, ports and processes.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirstSequencer },
    // Limits catch a hang, not slowness: `pnpm test` runs the suites beside the check and the browser tests,
    // and on a loaded 2-core host a test that takes 1 s alone can take several.
    // Outside the browser tests, files share their workers' module cache (isolate: false in each
    // project): loading Fastify, BullMQ, firebase-admin and the AWS SDK once per worker instead of once per
    // file saves most of a run's CPU. No file keeps state in a module it shares.
    projects: [
      {
        test: { name: 'shared', root: 'shared', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 30_000 },
      },
      { test: { name: 'core', root: 'core', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'simulator',
          root: 'simulator',
          isolate: false,
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          testTimeout: 30_000,
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
      {
        test: {
          name: 'client-build',
          root: 'client',
          include: ['vite/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      'e2e/vitest.config.ts',
      'faults/vitest.config.ts',
    ],
  },
});
