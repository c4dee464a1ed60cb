import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    globalSetup: ['@mediagen/testing/emulator-setup'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Files share one Redis and one emulator; each uses its own key prefix, but running them one at a
    // time keeps timing-sensitive socket tests steady.
    fileParallelism: false,
  },
});
