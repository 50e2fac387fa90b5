import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The portal's production build: `packages/portal/dist`, served by the server at `/`. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // Always the production builds of dependencies (Lit's dev build warns in every console): Vite
  // would pick them by NODE_ENV, which is "test" when the e2e suite builds the portal.
  resolve: { conditions: ['module', 'browser', 'production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // No inline scripts or styles: the shell's CSP allows only same-origin files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
