import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'faults',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    // The Auth emulator (reused when one already answers); the root config makes sure Redis is up.
    globalSetup: ['@mediagen/testing/emulator-setup'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
