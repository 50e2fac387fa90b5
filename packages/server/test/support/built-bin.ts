import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../../..');
/** The `diosc` bin as `npm run build --workspace @diosc/server` writes it: what `npm start` runs. */
export const BIN = resolve(ROOT, 'packages/server/dist/diosc.js');

/**
 * The bin, rebuilt first when its sources changed since its last build (scripts/builds.mjs, as
 * `npm start` does), so a test never runs an old build; it takes a lock, for test files in parallel.
 */
export function builtBin(): string {
  ensureBuilt('@diosc/server');
  return BIN;
}

/** The named workspaces' builds, each rebuilt first when stale (`node scripts/builds.mjs NAME…`). */
export function ensureBuilt(...names: string[]): void {
  execFileSync(process.execPath, ['scripts/builds.mjs', ...names], { cwd: ROOT, stdio: 'inherit' });
}
