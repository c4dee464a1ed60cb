import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  test: {
    name: 'server',
    isolate: false,
    include: ['test/**/*.test.ts'],
    globalSetup: ['@mediagen/testing/emulator-setup'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
