import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInputs, ensureBuilt, inputsDigest, isBuildFresh } from '../../builds.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TREE = join(ROOT, 'test-results', `builds-${process.pid}-${Date.now()}`);

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A checkout of two workspaces: `@t/app` (a build that counts its runs) depending on `@t/lib`. */
function checkout(name: string): string {
  const root = join(TREE, name);
  write(join(root, 'package.json'), JSON.stringify({ workspaces: ['packages/*'] }));
  write(join(root, 'package-lock.json'), '{}');
  write(join(root, 'packages/lib/package.json'), JSON.stringify({ name: '@t/lib', version: '0.0.0' }));
  write(join(root, 'packages/lib/src/index.ts'), 'export const a = 1;');
  write(join(root, 'packages/lib/test/lib.test.ts'), '');
  write(
    join(root, 'packages/app/package.json'),
    JSON.stringify({
      name: '@t/app',
      version: '0.0.0',
      dependencies: { '@t/lib': '0.0.0' },
      scripts: {
        build:
          "node -e \"const f=require('fs');f.mkdirSync('dist',{recursive:true});f.appendFileSync('../../builds.log','x')\"",
      },
    }),
  );
  write(join(root, 'packages/app/src/main.ts'), 'export {};');
  return root;
}

afterAll(() => rmSync(TREE, { recursive: true, force: true }));

describe('which builds are stale (scripts/builds.mjs)', () => {
  it('reads a build’s inputs from the workspace dependencies: the server bundles protocol, the portal the kit', () => {
    expect(buildInputs('@diosc/server')).toEqual(
      expect.arrayContaining([join(ROOT, 'packages/server'), join(ROOT, 'packages/protocol')]),
    );
    expect(buildInputs('@diosc/server')).not.toContain(join(ROOT, 'packages/kit'));
    expect(buildInputs('@diosc/portal')).toEqual(
      expect.arrayContaining([join(ROOT, 'packages/kit'), join(ROOT, 'packages/webmcp')]),
    );
  });

  it('digests contents: a new mtime alone changes nothing, a changed byte in a dependency does, a test does not', () => {
    const root = checkout('digest');
    const inputs = buildInputs('@t/app', root);
    const before = inputsDigest(inputs, root);
    utimesSync(join(root, 'packages/lib/src/index.ts'), 5_000, 5_000);
    expect(inputsDigest(inputs, root)).toBe(before);
    write(join(root, 'packages/lib/test/lib.test.ts'), 'changed');
    expect(inputsDigest(inputs, root)).toBe(before);
    write(join(root, 'packages/lib/src/index.ts'), 'export const a = 2;');
    expect(inputsDigest(inputs, root)).not.toBe(before);
  });

  it('builds once, skips a fresh build, and builds again after a source changes or the output goes', () => {
    const root = checkout('ensure');
    const runs = () => readFileSync(join(root, 'builds.log'), 'utf8').length;
    const quiet = { root, log: () => {} };
    expect(isBuildFresh('@t/app', root)).toBe(false);
    ensureBuilt(['@t/app'], quiet);
    ensureBuilt(['@t/app'], quiet);
    expect(runs()).toBe(1);
    expect(isBuildFresh('@t/app', root)).toBe(true);
    write(join(root, 'packages/lib/src/index.ts'), 'export const a = 3;');
    expect(isBuildFresh('@t/app', root)).toBe(false);
    ensureBuilt(['@t/app'], quiet);
    expect(runs()).toBe(2);
    rmSync(join(root, 'packages/app/dist'), { recursive: true });
    ensureBuilt(['@t/app'], quiet);
    expect(runs()).toBe(3);
  });

  it('refuses a name that is no workspace, with its code', () => {
    expect(() => buildInputs('@t/none', checkout('unknown'))).toThrow(/^BUILD_UNKNOWN_WORKSPACE: /);
  });
});
