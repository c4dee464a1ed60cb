import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'faults',
    root: import.meta.dirname,
    isolate: false,
    include: ['**/*.test.ts'],
    // The run's Auth emulator (started by the first project that needs it) and the production bundles every process here
    // runs; the root config makes sure Redis is up.
    globalSetup: ['@mediagen/testing/emulator-setup', 'support/build-bundles.ts'],
    // Hang guards: these run beside the other suites and the browser tests on two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
