// `npm run build --workspace @diosc/kit`: the files the hub serves, in packages/kit/dist/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleKit, KIT_GZIP_BUDGET_BYTES } from './bundle.js';
import { kitManifest } from './manifest.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

const script = await bundleKit('iife');
const module = await bundleKit('es');
const manifest = kitManifest(script, module);
rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
writeFileSync(`${DIST}${manifest.script}`, script.code);
writeFileSync(`${DIST}${manifest.immutableScript}`, script.code);
writeFileSync(`${DIST}${manifest.module}`, module.code);
writeFileSync(`${DIST}${manifest.immutableModule}`, module.code);
writeFileSync(`${DIST}manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `kit: ${manifest.immutableScript} ${script.gzipBytes} B gzip (budget ${KIT_GZIP_BUDGET_BYTES} B), ${manifest.immutableModule} ${module.gzipBytes} B gzip`,
);
