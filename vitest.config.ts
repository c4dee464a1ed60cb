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
    projects: [
      // Every Node suite in one project, so that its files share workers: Vitest keeps a worker (and the
      // modules it loaded) for the next file only when that file is of the same project. With a project per
      // package each package started workers of its own, each loading Fastify, BullMQ, firebase-admin and the
      // AWS SDK again; as one, the test workers of a whole `pnpm test` used a fifth less CPU. No file keeps
      // state in a module it shares. Limits catch a hang, not slowness (above).
      {
        test: {
          name: 'node',
          isolate: false,
          include: [
            'shared/test/**/*.test.ts',
            'core/test/**/*.test.ts',
            'simulator/test/**/*.test.ts',
            'simulator/src/**/*.test.ts',
            'worker/test/**/*.test.ts',
            'ops/test/**/*.test.ts',
            'scripts/test/**/*.test.ts',
            'server/test/**/*.test.ts',
            'faults/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**'],
          // The run's Auth emulator (testing/src/with-auth-emulator.ts's, or one of its own), and the
          // production bundles of the server, worker and queue CLI that tests start as processes.
          globalSetup: ['testing/src/emulator-setup.ts', 'testing/src/bundles-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
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
    ],
  },
});
