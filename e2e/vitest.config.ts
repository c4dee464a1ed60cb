import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './support/workers';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    // Files share their worker's modules and its browser (support/browser.ts): Playwright is loaded and
    // Chromium launched once per worker, not once per file. Each test has a browser context of its own.
    isolate: false,
    globalSetup: ['support/global-setup.ts'],
    // One stack per worker (support/global-setup.ts): files on different workers never share one.
    maxWorkers: E2E_WORKERS,
    // After the other projects when one run takes them all (a group runs with one worker count).
    sequence: { groupOrder: 1 },
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
