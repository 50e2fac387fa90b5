import { bridgeFileName, type KitBundle } from './bundle.js';

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
  /** Subresource Integrity of each file. */
  integrity: { script: string; module: string; webmcpBridge: string };
  gzipBytes: { script: number; module: number; webmcpBridge: number };
  brotliBytes: { script: number; module: number; webmcpBridge: number };
}

export function kitManifest(script: KitBundle & { bridge: KitBundle }, module: KitBundle): KitManifest {
  return {
    script: 'diosc-kit.js',
    immutableScript: `diosc-kit.${script.hash}.js`,
    module: 'diosc-kit.mjs',
    immutableModule: `diosc-kit.${module.hash}.mjs`,
    webmcpBridge: bridgeFileName(script.bridge),
    integrity: { script: script.integrity, module: module.integrity, webmcpBridge: script.bridge.integrity },
    gzipBytes: { script: script.gzipBytes, module: module.gzipBytes, webmcpBridge: script.bridge.gzipBytes },
    brotliBytes: {
      script: script.brotliBytes,
      module: module.brotliBytes,
      webmcpBridge: script.bridge.brotliBytes,
    },
  };
}
