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
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // A hang guard: beside the other suites on a loaded 2-core host, a render that takes 1 s alone takes 5.
    testTimeout: 20_000,
    // The local defaults of .env.development, so modules that read the config at load time start.
    env: loadEnv('development', clientDir, 'VITE_'),
  },
});
