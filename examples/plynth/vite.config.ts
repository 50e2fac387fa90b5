import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** Plynth's production build: `examples/plynth/dist`, served by the example's server. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // No inline scripts or styles: the example's server sends a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
