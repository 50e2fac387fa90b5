import { type KitManifest } from './manifest.js';
/**
 * Builds the kit into `dir`: the script and the module under their stable names and their
 * content-hashed names, and `manifest.json`. `npm run build` writes packages/kit/dist; tests write a
 * folder under test-results/ and serve it.
 */
export declare function writeKitDist(dir: string): Promise<KitManifest>;
