import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Plugin, type Rollup } from 'vite';

/**
 * The kit's initial JavaScript (widget, dialog, built-ins, adapter, transport) on the wire, as the
 * hub sends it to a browser: Brotli (`kit-assets/`). The design's goal is 30 KB.
 */
export const KIT_WIRE_BUDGET_BYTES = 30_000;
/**
 * The same with gzip, for a client without Brotli, which compresses the kit about 12% worse; what
 * the design holds is the wire budget above.
 */
export const KIT_GZIP_BUDGET_BYTES = 33_000;

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * Lit keeps `css` template text as written; minifiers leave string contents alone. This drops the
 * source's indentation, the spaces around CSS punctuation and the zero before a decimal point
 * (templates with `${}` are left as they are), so readable styles cost no bytes.
 */
export function compactCss(source: string): string {
  return source.replace(/\bcss`([^`]*)`/g, (whole, body: string) =>
    body.includes('${')
      ? whole
      : `css\`${body
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};:,>])\s*/g, '$1')
          .replace(/;}/g, '}')
          .replace(/([:(, ])0\.(\d)/g, '$1.$2')
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
  /** Brotli at its best quality: what the hub sends a browser. */
  brotliBytes: number;
  /** First 12 hex digits of the SHA-256 of the code: the immutable file's name. */
  hash: string;
  /** Subresource Integrity of the code (`sha384-…`), for `<script integrity>`. */
  integrity: string;
}

/**
 * One build of the kit: `iife` is the `<script async>` file (installs `window.diosc` and replays
 * the snippet's queue), `es` the module a page can `import { diosc }` from. Minified, one file, no
 * source map, deterministic — the size test and `npm run build` call this same function. Beside it,
 * the parts it loads on demand, each a separate pinned script rather than initial JavaScript: the
 * markdown parser (after the launcher is drawn) and the WebMCP bridge (`init({ webmcp: true })`).
 */
export async function bundleKit(format: 'iife' | 'es'): Promise<KitBundle & KitParts> {
  const bridge = await bundleBrowser(`${SRC}webmcp/bridge-script.ts`, 'iife');
  const markdown = await bundleBrowser(`${SRC}widget/markdown/parser-script.ts`, 'iife');
  const pinned = (part: KitBundle, name: PartName) => ({
    file: partFileName(name, part),
    integrity: part.integrity,
  });
  const main = await bundleBrowser(format === 'iife' ? `${SRC}loader.ts` : `${SRC}index.ts`, format, {
    plugins: [loadPartsFromScripts],
    define: {
      __DIOSC_WEBMCP_SCRIPT__: JSON.stringify(pinned(bridge, 'webmcp')),
      __DIOSC_MARKDOWN_SCRIPT__: JSON.stringify(pinned(markdown, 'markdown')),
    },
  });
  return { ...main, bridge, markdown };
}

/** The kit's on-demand parts, each its own pinned script. */
export interface KitParts {
  bridge: KitBundle;
  markdown: KitBundle;
}

/** `diosc-kit-<name>.<hash>.js`: a part's file, named by its content (served `immutable`). */
type PartName = 'webmcp' | 'markdown';

export const partFileName = (name: PartName, part: KitBundle) => `diosc-kit-${name}.${part.hash}.js`;

/** In the built files, each part comes from its own script rather than from the bundle. */
const PART_LOADERS: Record<string, string> = {
  '/load-bridge.js': 'webmcp/load-bridge-script.ts',
  '/load-parser.js': 'widget/markdown/load-parser-script.ts',
};

const loadPartsFromScripts: Plugin = {
  name: 'diosc-load-parts-from-scripts',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (!importer?.startsWith(SRC)) return null;
    const loader = Object.entries(PART_LOADERS).find(([ending]) => source.endsWith(ending))?.[1];
    return loader ? `${SRC}${loader}` : null;
  },
};

/** Any browser entry built the kit's way (the bench measures Lit alone with it, as a baseline). */
export async function bundleBrowser(
  entry: string,
  format: 'iife' | 'es',
  extra: { plugins?: Plugin[]; define?: Record<string, string> } = {},
): Promise<KitBundle> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    // Lit's production build whatever NODE_ENV is (vitest sets "test", which would pick the dev build).
    resolve: { conditions: ['module', 'browser', 'production'] },
    define: { 'process.env.NODE_ENV': '"production"', ...extra.define },
    plugins: [compactStyles, ...(extra.plugins ?? [])],
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
    brotliBytes: brotliCompressSync(code, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
      },
    }).length,
    hash: createHash('sha256').update(code).digest('hex').slice(0, 12),
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
  };
}
