import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { defineConfig } from 'vitest/config';

const clientDir = new URL('.', import.meta.url).pathname;

export default defineConfig({
  plugins: [react()],
  root: clientDir,
  resolve: { alias: { '@': `${clientDir}src` } },
  test: {
    name: 'client',
    environment: 'jsdom',
    // Files share their workers' jsdom and module cache: building a jsdom and loading React, the router and
    // the setup file's imports once per worker instead of once per file saves over half the project's CPU.
    // src/testing/setup.ts resets the shared state before each test and mocks, once for all files, the
    // module every file replaced (a module that imports it would keep the first file's mock).
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // A hang guard: beside the other suites on a loaded 2-core host, a render that takes 1 s alone takes 5.
    testTimeout: 20_000,
    // The local defaults of .env.development, so modules that read the config at load time start.
    env: loadEnv('development', clientDir, 'VITE_'),
  },
});
