import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isBuildFresh, portalBuildInputs } from './support/portal-build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TREE = join(ROOT, 'test-results', `portal-build-${process.pid}-${Date.now()}`);

function write(path: string, text: string, mtimeSeconds: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, mtimeSeconds, mtimeSeconds);
}

afterAll(() => rmSync(TREE, { recursive: true, force: true }));

describe('the portal e2e build’s staleness check', () => {
  it('watches the source of every workspace package the portal bundles, the kit’s included', () => {
    const inputs = portalBuildInputs();
    expect(inputs).toContain(join(ROOT, 'packages/kit/src'));
    expect(inputs).toContain(join(ROOT, 'packages/webmcp/src'));
    expect(inputs).toContain(join(ROOT, 'packages/protocol/src'));
    expect(inputs).toContain(join(ROOT, 'packages/portal/src'));
  });

  it('calls a build stale when a file deep in the kit’s source is newer than it', () => {
    const root = join(TREE, 'checkout');
    write(
      join(root, 'packages/portal/package.json'),
      JSON.stringify({ dependencies: { '@diosc/kit': '0.1.0', lit: '3.3.3' } }),
      1_000,
    );
    write(join(root, 'packages/portal/src/main.ts'), 'export {};', 1_000);
    const guard = join(root, 'packages/kit/src/consensus/approval-guard.ts');
    write(guard, 'export class ApprovalGuard {}', 1_000);
    const built = join(root, 'packages/portal/dist/index.html');
    write(built, '<!doctype html>', 2_000);
    // Folders' own mtimes move when files are created in them; pin them to before the build.
    for (const folder of [
      'packages/portal',
      'packages/portal/src',
      'packages/kit/src',
      'packages/kit/src/consensus',
    ])
      utimesSync(join(root, folder), 1_000, 1_000);

    const inputs = portalBuildInputs(root);
    expect(inputs).not.toContain(join(root, 'packages/lit/src'));
    expect(isBuildFresh(built, inputs)).toBe(true);

    write(guard, 'export class ApprovalGuard { /* broken */ }', 3_000);
    expect(isBuildFresh(built, inputs)).toBe(false);
  });
});
