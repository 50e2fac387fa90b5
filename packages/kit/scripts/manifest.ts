import { type KitBundle, type KitParts, partFileName } from './bundle.js';

/** `dist/manifest.json`: what the hub serves and under which names. */
export interface KitManifest {
  /** The stable URL's file (`<script async src=".../diosc-kit.js">`): revalidated, never cached long. */
  script: string;
  /** The same bytes under a content hash: cacheable forever (`immutable`). */
  immutableScript: string;
  /** The ES module (`import { diosc } from ".../diosc-kit.mjs"`), stable and hashed. */
  module: string;
  immutableModule: string;
  /** The WebMCP bridge both load for `init({ webmcp: true })` (hashed name only; pinned by them). */
  webmcpBridge: string;
  /** The markdown parser both load after the launcher is drawn (hashed name only; pinned by them). */
  markdownParser: string;
  /** Subresource Integrity of each file. */
  integrity: FileFigures<string>;
  gzipBytes: FileFigures<number>;
  brotliBytes: FileFigures<number>;
}

interface FileFigures<T> {
  script: T;
  module: T;
  webmcpBridge: T;
  markdownParser: T;
}

export function kitManifest(script: KitBundle & KitParts, module: KitBundle): KitManifest {
  const figures = <K extends 'integrity' | 'gzipBytes' | 'brotliBytes'>(key: K) => ({
    script: script[key],
    module: module[key],
    webmcpBridge: script.bridge[key],
    markdownParser: script.markdown[key],
  });
  return {
    script: 'diosc-kit.js',
    immutableScript: `diosc-kit.${script.hash}.js`,
    module: 'diosc-kit.mjs',
    immutableModule: `diosc-kit.${module.hash}.mjs`,
    webmcpBridge: partFileName('webmcp', script.bridge),
    markdownParser: partFileName('markdown', script.markdown),
    integrity: figures('integrity'),
    gzipBytes: figures('gzipBytes'),
    brotliBytes: figures('brotliBytes'),
  };
}
