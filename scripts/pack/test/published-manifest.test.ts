import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLISHED, publishedManifest } from '../pack-packages.js';

const manifestOf = (pkg: string) =>
  JSON.parse(readFileSync(new URL(`../../../packages/${pkg}/package.json`, import.meta.url), 'utf8'));

/** Every file an `exports` map points at (its values, through the conditions). */
const targetsOf = (exports: unknown): string[] =>
  typeof exports === 'string'
    ? [exports]
    : Object.values(exports as Record<string, unknown>).flatMap((value) => targetsOf(value));

describe('the published manifest', () => {
  it('takes publishConfig’s fields over the workspace’s, keeps npm’s own settings there, drops scripts', () => {
    expect(
      publishedManifest({
        name: '@diosc/x',
        version: '1.0.0',
        exports: { '.': './src/index.ts' },
        scripts: { prepack: 'refuse' },
        devDependencies: { react: '19.3.1' },
        publishConfig: { exports: { '.': './dist/index.js' }, access: 'public' },
      }),
    ).toEqual({
      name: '@diosc/x',
      version: '1.0.0',
      exports: { '.': './dist/index.js' },
      publishConfig: { access: 'public' },
    });
  });

  it('of every published package points only into what its `files` ship, and is not private', () => {
    for (const pkg of PUBLISHED) {
      const manifest = manifestOf(pkg);
      const published = publishedManifest(manifest);
      expect(published.private, pkg).toBeUndefined();
      expect(manifest.scripts.prepack, pkg).toContain('refuse-source-pack');
      for (const target of targetsOf(published.exports)) {
        const path = target.slice(2);
        expect(
          path === 'package.json' || (published.files as string[]).some((dir) => path.startsWith(`${dir}/`)),
          `${pkg}: ${path}`,
        ).toBe(true);
      }
      for (const name of Object.keys(manifest.dependencies ?? {}).filter((dep) => dep.startsWith('@diosc/')))
        expect(
          PUBLISHED.map((each) => `@diosc/${each}`),
          `${pkg} depends on ${name}`,
        ).toContain(name);
    }
  });
});
