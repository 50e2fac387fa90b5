/**
 * `@diosc/kit/build` (Node only): how the kit's files are made — for the hub's tests, the browser
 * tests and the bench, which build the kit the same way `npm run build` does.
 */
export type { KitBundle, KitParts } from './bundle.js';
export {
  bundleBrowser,
  bundleKit,
  KIT_GZIP_BUDGET_BYTES,
  KIT_WIRE_BUDGET_BYTES,
  partFileName,
} from './bundle.js';
export type { KitManifest } from './manifest.js';
export { kitManifest } from './manifest.js';
export { writeKitDist } from './write-dist.js';
