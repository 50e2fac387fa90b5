import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin, type Rollup } from 'vite';

/** The budget for the kit's initial JavaScript (widget, dialog, built-ins, adapter, transport). */
export const KIT_GZIP_BUDGET_BYTES = 30_000;

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * Lit keeps `css` template text as written; minifiers leave string contents alone. This drops the
 * source's indentation and the spaces around CSS punctuation (templates with `${}` are left as they
 * are), so readable styles cost no bytes.
 */
export function compactCss(source: string): string {
  return source.replace(/\bcss`([^`]*)`/g, (whole, body: string) =>
    body.includes('${')
      ? whole
      : `css\`${body
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};:,>])\s*/g, '$1')
          .replace(/;}/g, '}')
          .trim()}\``,
  );
}

const compactStyles: Plugin = {
  name: 'diosc-compact-css',
  transform(code, id) {
    return id.startsWith(SRC) && id.endsWith('.ts') && code.includes('css`') ? compactCss(code) : null;
  },
};

export interface KitBundle {
  code: string;
  gzipBytes: number;
  /** First 12 hex digits of the SHA-256 of the code: the immutable file's name. */
  hash: string;
  /** Subresource Integrity of the code (`sha384-…`), for `<script integrity>`. */
  integrity: string;
}

/**
 * One build of the kit: `iife` is the `<script async>` file (installs `window.diosc` and replays
 * the snippet's queue), `es` the module a page can `import { diosc }` from. Minified, one file, no
 * source map, deterministic — the size test and `npm run build` call this same function.
 */
export async function bundleKit(format: 'iife' | 'es'): Promise<KitBundle> {
  const entry = format === 'iife' ? `${SRC}loader.ts` : `${SRC}index.ts`;
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    // Lit's production build whatever NODE_ENV is (vitest sets "test", which would pick the dev build).
    resolve: { conditions: ['module', 'browser', 'production'] },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [compactStyles],
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      sourcemap: false,
      lib: { entry, formats: [format], name: 'dioscKit', fileName: () => `kit.${format}.js` },
    },
  });
  const results = (Array.isArray(output) ? output : [output]) as Rollup.RollupOutput[];
  const chunk = results
    .flatMap((result) => result.output)
    .find((each) => each.type === 'chunk' && each.isEntry);
  if (chunk?.type !== 'chunk') throw new Error('vite produced no entry chunk for the kit');
  const code = chunk.code;
  return {
    code,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    hash: createHash('sha256').update(code).digest('hex').slice(0, 12),
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
  };
}
