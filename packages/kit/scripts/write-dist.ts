import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleKit } from './bundle.js';
import { type KitManifest, kitManifest } from './manifest.js';

/**
 * Builds the kit into `dir`: the script and the module under their stable names and their
 * content-hashed names, the parts they load on demand (markdown parser, WebMCP bridge), and `manifest.json`. `npm run build` writes packages/kit/dist; tests write a
 * folder under test-results/ and serve it.
 */
export async function writeKitDist(dir: string): Promise<KitManifest> {
  const script = await bundleKit('iife');
  const module = await bundleKit('es');
  const manifest = kitManifest(script, module);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, manifest.script), script.code);
  writeFileSync(join(dir, manifest.immutableScript), script.code);
  writeFileSync(join(dir, manifest.module), module.code);
  writeFileSync(join(dir, manifest.immutableModule), module.code);
  writeFileSync(join(dir, manifest.webmcpBridge), script.bridge.code);
  writeFileSync(join(dir, manifest.markdownParser), script.markdown.code);
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
