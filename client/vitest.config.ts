import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { defineConfig } from 'vitest/config';

const clientDir = new URL('.', import.meta.url).pathname;
// The workspace root, so the include below reads the same from wherever vitest is started.
const workspaceRoot = new URL('..', import.meta.url).pathname;

export default defineConfig({
  plugins: [react()],
  root: workspaceRoot,
  resolve: { alias: { '@': `${clientDir}src` } },
  test: {
    environment: 'jsdom',
    include: ['client/src/**/*.test.{ts,tsx}'],
    setupFiles: ['client/src/testing/setup.ts'],
    // The local defaults of .env.development, so modules that read the config at load time start.
    env: loadEnv('development', clientDir, 'VITE_'),
  },
});
