import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
