// `npm run build --workspace @diosc/kit`: the files the hub serves at /kit/, in packages/kit/dist/.
import { fileURLToPath } from 'node:url';
import { KIT_GZIP_BUDGET_BYTES, KIT_WIRE_BUDGET_BYTES } from './bundle.js';
import { writeKitDist } from './write-dist.js';

const manifest = await writeKitDist(fileURLToPath(new URL('../dist/', import.meta.url)));
console.log(
  `kit: ${manifest.immutableScript} ${manifest.brotliBytes.script} B Brotli (budget ${KIT_WIRE_BUDGET_BYTES} B), ${manifest.gzipBytes.script} B gzip (budget ${KIT_GZIP_BUDGET_BYTES} B), ${manifest.immutableModule} ${manifest.gzipBytes.module} B gzip, on demand: ${manifest.markdownParser} ${manifest.brotliBytes.markdownParser} B Brotli, ${manifest.webmcpBridge} ${manifest.brotliBytes.webmcpBridge} B Brotli`,
);
