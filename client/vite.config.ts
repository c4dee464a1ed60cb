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

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadPageChunks(new URL('./src/app/routes/', import.meta.url).pathname)],
  server: { proxy },
  preview: { proxy },
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  build: {
    rollupOptions: {
      treeshake: {
        // @mediagen/shared does no I/O (DESIGN.md), but builds its request schemas with zod at module
        // level. Declaring it side-effect free keeps zod (~25 kB gzip) out of every chunk that does not
        // import from its api module.
        moduleSideEffects: (id, external) => external || !id.includes('/shared/src/'),
      },
    },
  },
});
