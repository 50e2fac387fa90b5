/** The budget for the kit's initial JavaScript (widget, dialog, built-ins, adapter, transport). */
export declare const KIT_GZIP_BUDGET_BYTES = 30000;
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
export declare function bundleKit(format: 'iife' | 'es'): Promise<KitBundle>;
