import { build } from 'vite';

/**
 * Bundles a test page's script (with the real browser packages it imports) into one file: an ES
 * module (`es`) or a classic script (`iife`, for pages that must run it before an async script).
 */
export async function bundlePage(entry: string, format: 'es' | 'iife' = 'es'): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: [format], name: 'testPage', fileName: () => `page.${format}.js` },
      // One file, whatever the page imports lazily (the kit's WebMCP bridge, say).
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!('output' in result)) continue;
    for (const chunk of result.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  }
  throw new Error(`vite produced no entry chunk for ${entry}`);
}
