import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The packages whose roots must run in a browser (design: "package roots safe for every runtime"). */
const BROWSER_ROOTS = [
  'packages/protocol/src',
  'packages/webmcp/src',
  'packages/kit/src',
  'packages/portal/src',
  // The worked examples' apps: what a developer copies into a page.
  'examples/northwind/src',
  'examples/plynth/src',
];
const root = new URL('../../../', import.meta.url).pathname;
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0]!]));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry) ? [path] : [];
  });
}

/** Every module specifier a file names: static imports/exports, side-effect imports, import(), require(). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function isNodeBuiltin(specifier: string): boolean {
  return (
    specifier.startsWith('node:') ||
    NODE_BUILTINS.has(specifier) ||
    NODE_BUILTINS.has(specifier.split('/')[0]!)
  );
}

describe('browser-safe package roots', () => {
  it('the scanner sees every kind of import', () => {
    const sample = `
      import fs from 'node:fs';
      import { join } from "path";
      import type { X } from 'crypto';
      export { a } from 'os';
      import 'node:process';
      const m = await import('child_process');
      const r = require('worker_threads');
      import { ok } from './ok.js';
    `;
    const found = specifiers(sample);
    expect(found).toEqual(
      expect.arrayContaining([
        'node:fs',
        'path',
        'crypto',
        'os',
        'node:process',
        'child_process',
        'worker_threads',
        './ok.js',
      ]),
    );
    expect(found.filter(isNodeBuiltin)).toHaveLength(7);
  });

  it.each(BROWSER_ROOTS)('%s imports no node: module or Node built-in', (dir) => {
    // A listed folder that is missing (renamed, moved) fails: a scan of nothing proves nothing.
    expect(existsSync(join(root, dir)), `${dir} exists`).toBe(true);
    const list = files(join(root, dir));
    expect(list.length).toBeGreaterThan(0);
    const offenders = list.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter(isNodeBuiltin)
        .map((specifier) => `${relative(root, file)}: ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});
