import { defineConfig } from 'vite';

// Two pages from one install: the plain TypeScript one and the React one.
export default defineConfig({
  build: { rollupOptions: { input: { plain: 'index.html', react: 'react.html' } } },
});
