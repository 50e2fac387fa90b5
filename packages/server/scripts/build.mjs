// `npm run build --workspace @diosc/server`: the `diosc` bin as plain JavaScript in dist/, so no
// TypeScript loader runs when the server or a command starts (tsx cost seconds per start).
//
// Rolldown, not tsc: the server imports @diosc/protocol as TypeScript source (its package exports
// ./src/*.ts), which tsc would leave as an import Node cannot load; a bundler inlines it. Rolldown
// is the bundler Vite 8 runs on (the kit and the portal build with Vite), so it adds no package to
// the tree (a root devDependency, at the version Vite's own range installs); Vite itself would only bring
// browser-side handling the server does not want.
//
// Pure-JavaScript ES module dependencies (kysely, zod, the AI and MCP SDKs, jose…) are bundled:
// together they were hundreds of files to resolve and read at every start. What stays an import from
// node_modules is in EXTERNAL, with its reason.
import { chmodSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const DIST = `${PACKAGE}dist`;

/**
 * Native addons (better-sqlite3, argon2) cannot be bundled; pg requires its optional native driver
 * by name; Fastify with its plugins and undici are CommonJS that load parts of themselves by path
 * at run time (pino's transports, llhttp), which a bundle could break.
 */
const EXTERNAL = /^(node:|fastify$|@fastify\/|better-sqlite3$|@node-rs\/argon2$|pg$|undici$)/;

rmSync(DIST, { recursive: true, force: true });
await build({
  cwd: PACKAGE,
  input: { diosc: 'src/cli/main.ts' },
  platform: 'node',
  external: EXTERNAL,
  transform: { target: 'node20' },
  logLevel: 'warn',
  output: {
    dir: DIST,
    format: 'esm',
    // Flat, one folder below the package like src/*.ts: package-dir.ts's relative URL relies on it.
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
  },
});
chmodSync(`${DIST}/diosc.js`, 0o755);
