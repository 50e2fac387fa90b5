import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * Tests write their doc artifacts under test-results/ only (`npm test` fails if a run changed a
 * tracked file); `npm run docs:refresh` copies a declared list of them into the tracked docs. Every
 * screenshot a suite takes and every benchmark's results must be on that list, or the docs would
 * silently keep an old one.
 */
describe('doc artifacts', () => {
  const refresh = readFileSync(join(ROOT, 'scripts/docs-refresh.mjs'), 'utf8');

  it('lists every screenshot the suites take in docs:refresh', () => {
    const taken = sources(join(ROOT, 'e2e')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/screenshot\([^)]*?'([\w-]+\.png)'/g)].map(
        (match) => match[1]!,
      ),
    );
    expect(taken.length).toBeGreaterThan(0);
    expect(
      taken.filter((name) => !refresh.includes(`'screenshots/${name}', 'docs/screenshots/${name}'`)),
    ).toEqual([]);
  });

  it('lists the native WebMCP report and every benchmark result', () => {
    for (const name of ['native-webmcp.json', 'native-webmcp.md'])
      expect(refresh).toContain(`'${name}', 'docs/${name}'`);
    const benches = readdirSync(join(ROOT, 'bench')).filter(
      (name) => statSync(join(ROOT, 'bench', name)).isDirectory() && name !== 'results',
    );
    expect(benches.length).toBeGreaterThan(0);
    for (const bench of benches) {
      for (const ext of ['json', 'md'])
        expect(refresh, bench).toContain(`'bench/${bench}.${ext}', 'bench/results/${bench}.${ext}'`);
    }
  });
});
