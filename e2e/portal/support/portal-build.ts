import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const PORTAL_ROOT = join(ROOT, 'packages/portal');
export const PORTAL_DIST = join(PORTAL_ROOT, 'dist');
/** Outside the tree (so it is never committed), one per checkout. */
const LOCK = join(
  tmpdir(),
  `diosc-portal-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`,
);

/**
 * Everything the bundle is made from: the portal's own files and the `src` of every workspace
 * package it depends on (`@diosc/kit` brings the approval guard). Read from its package.json, so a
 * new dependency is watched without anyone remembering to list it here.
 */
export function portalBuildInputs(root: string = ROOT): string[] {
  const portal = join(root, 'packages/portal');
  const manifest = JSON.parse(readFileSync(join(portal, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const workspaces = Object.keys(manifest.dependencies ?? {})
    .filter((name) => name.startsWith('@diosc/'))
    .map((name) => join(root, 'packages', name.slice('@diosc/'.length), 'src'));
  return [
    join(portal, 'src'),
    join(portal, 'public'),
    join(portal, 'index.html'),
    join(portal, 'vite.config.ts'),
    join(portal, 'package.json'),
    ...workspaces,
  ];
}

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/** True when `built` exists and no input (file or anything under a folder) is newer than it. */
export function isBuildFresh(built: string, inputs: readonly string[]): boolean {
  return existsSync(built) && statSync(built).mtimeMs >= Math.max(...inputs.map(newest));
}

function isFresh(): boolean {
  return isBuildFresh(join(PORTAL_DIST, 'index.html'), portalBuildInputs());
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Builds the portal with Vite's `build()` API when `dist` is missing or older than its sources.
 * Test files run in parallel processes, so one builds under a lock directory while the others wait.
 */
export async function ensurePortalBuilt(): Promise<void> {
  for (;;) {
    if (isFresh()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      // Someone else is building; a lock older than two minutes belongs to a dead process.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 120_000)
        rmSync(LOCK, { recursive: true });
      await sleep(250);
      continue;
    }
    try {
      if (!isFresh()) {
        const { build } = await import('vite');
        await build({ root: PORTAL_ROOT, configFile: join(PORTAL_ROOT, 'vite.config.ts'), logLevel: 'warn' });
      }
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
