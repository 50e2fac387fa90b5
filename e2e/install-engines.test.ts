import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const read = (path: string) => JSON.parse(readFileSync(resolve(ROOT, path), 'utf8'));

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
}

/**
 * The README promises the oldest Node the root `engines` names; a clean `npm ci` on it must print
 * no EBADENGINE warning. npm warns for every installed package whose `engines.node` excludes the
 * running Node, so every locked package must accept that oldest version (overrides in the root
 * package.json pin the Node 20 lines of the few that moved on).
 */
describe('a clean install on the oldest Node we promise', () => {
  const promised = semver.minVersion(read('package.json').engines.node)!;
  const locked = Object.entries(read('package-lock.json').packages as Record<string, LockedPackage>);

  it('installs only packages whose engines accept it', () => {
    expect(promised.version).toMatch(/^20\./);
    expect(locked.length).toBeGreaterThan(100);
    const nodeRange = (entry: LockedPackage) =>
      Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    const refusing = locked
      .filter(([path, entry]) => path !== '' && nodeRange(entry) !== undefined)
      .filter(([, entry]) => !semver.satisfies(promised, nodeRange(entry)!))
      .map(([path, entry]) => `${path}@${entry.version}: node ${nodeRange(entry)}`);
    expect(refusing).toEqual([]);
  });
});
