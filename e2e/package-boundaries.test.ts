import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SKIP = new Set(['node_modules', 'dist', 'test-results', '.data']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name) || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The package folder (`packages/kit`) a path lies in, if any. */
function packageOf(path: string): string | undefined {
  const parts = relative(ROOT, path).split(sep);
  return parts[0] === 'packages' && parts[1] ? `packages/${parts[1]}` : undefined;
}

/**
 * A package is reached through its name and `exports` (`@diosc/server/testing`), never by a relative
 * path into its `src/`: what e2e, the benches, the scripts and the examples need is what a user's
 * own code could import, and a package's inside can move without breaking them.
 */
describe('package boundaries', () => {
  const files = ['e2e', 'bench', 'scripts', 'examples', 'packages'].flatMap((dir) =>
    sources(join(ROOT, dir)),
  );

  it('no module imports another package’s src/ by a relative path', () => {
    expect(files.length).toBeGreaterThan(300);
    const crossings: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
        const target = resolve(dirname(file), match[1]!);
        const owner = packageOf(target);
        if (!owner || owner === packageOf(file)) continue;
        if (relative(join(ROOT, owner), target).split(sep)[0] !== 'src') continue;
        crossings.push(`${relative(ROOT, file)} → ${match[1]}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
