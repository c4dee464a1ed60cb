import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { preloadPageChunks } from './vite/preload-page-chunks';

/**
 * Token sync (VITE_TOKEN_SYNC_URL) needs the API's /api/session on the app's own origin: in production a
 * reverse proxy does it; the dev and preview servers forward it when MEDIAGEN_API_ORIGIN names the API.
 */
const apiOrigin = process.env.MEDIAGEN_API_ORIGIN;
const proxy = apiOrigin ? { '/api/session': { target: apiOrigin } } : undefined;

const path = (relative: string) => new URL(relative, import.meta.url).pathname;

/**
 * What the dev server may read: the client, the shared package it imports and the dependencies. Vite's
 * default is the whole workspace, which would serve anyone reaching the port every user's originals in
 * .data/ and every other package's source (/@fs/…).
 */
const devServerFiles = {
  allow: [path('./'), path('../shared/src'), path('../node_modules')],
  deny: ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/.data/**'],
};

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadPageChunks(path('./src/app/routes/'))],
  server: { proxy, fs: devServerFiles },
  preview: { proxy },
  resolve: { alias: { '@': path('./src') } },
  build: {
    rollupOptions: {
      treeshake: {
        // @mediagen/shared does no I/O (docs/ARCHITECTURE.md), but builds its request schemas with zod at module
        // level. Declaring it side-effect free keeps zod (~25 kB gzip) out of every chunk that does not
        // import from its api module.
        moduleSideEffects: (id, external) => external || !id.includes('/shared/src/'),
      },
    },
  },
});
