import type { KitBundle } from './bundle.js';
/** `dist/manifest.json`: what the hub serves and under which names. */
export interface KitManifest {
    /** The stable URL's file (`<script async src=".../diosc-kit.js">`): revalidated, never cached long. */
    script: string;
    /** The same bytes under a content hash: cacheable forever (`immutable`). */
    immutableScript: string;
    /** The ES module (`import { diosc } from ".../diosc-kit.mjs"`), stable and hashed. */
    module: string;
    immutableModule: string;
    /** Subresource Integrity of the script and the module. */
    integrity: {
        script: string;
        module: string;
    };
    gzipBytes: {
        script: number;
        module: number;
    };
}
export declare function kitManifest(script: KitBundle, module: KitBundle): KitManifest;
