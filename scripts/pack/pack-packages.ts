import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKitDist } from '@diosc/kit/build';
import { outsideEnv } from './outside-env.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The publishable packages, dependencies first (folder under packages/). */
export const PUBLISHED = ['protocol', 'webmcp', 'kit', 'react'] as const;
export type Published = (typeof PUBLISHED)[number];

/** npm's own settings in `publishConfig`; every other key there replaces the manifest's on publish. */
const NPM_PUBLISH_SETTINGS = new Set(['registry', 'access', 'tag', 'provenance']);

type Manifest = Record<string, unknown> & {
  name: string;
  version: string;
  publishConfig?: Record<string, unknown>;
};

/**
 * The manifest as published: the workspace's, with `publishConfig`'s fields in place of its own
 * (npm applies only its registry settings from there, so the stage does it), and without what
 * only the workspace runs (scripts, devDependencies).
 */
export function publishedManifest(manifest: Manifest): Manifest {
  const { publishConfig = {}, scripts: _scripts, devDependencies: _dev, ...rest } = manifest;
  const npmSettings = Object.entries(publishConfig).filter(([key]) => NPM_PUBLISH_SETTINGS.has(key));
  const overrides = Object.entries(publishConfig).filter(([key]) => !NPM_PUBLISH_SETTINGS.has(key));
  return {
    ...rest,
    ...Object.fromEntries(overrides),
    ...(npmSettings.length ? { publishConfig: Object.fromEntries(npmSettings) } : {}),
  } as Manifest;
}

const run = (file: string, args: string[], cwd = ROOT) =>
  execFileSync(file, args, { cwd, env: outsideEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Stages one package under `stageDir` (ESM + `.d.ts` from tsc, the kit's `<script>` build, README,
 * the published manifest) and packs it into `outDir`; returns the tarball's path.
 */
async function packOne(pkg: Published, stageDir: string, outDir: string): Promise<string> {
  const source = join(ROOT, 'packages', pkg);
  const stage = join(stageDir, pkg);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  // The package's own tsconfig (its runtime, its references), emitting JavaScript as well.
  run(process.execPath, [
    TSC,
    '-p',
    join(source, 'tsconfig.json'),
    '--outDir',
    join(stage, 'dist'),
    '--emitDeclarationOnly',
    'false',
    '--composite',
    'false',
    '--incremental',
    'false',
  ]);
  if (pkg === 'kit') await writeKitDist(join(stage, 'script'));
  copyFileSync(join(source, 'README.md'), join(stage, 'README.md'));
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as Manifest;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], stage),
  ) as { filename: string }[];
  return join(outDir, packed!.filename);
}

/**
 * `npm run pack`: every publishable package as the tarball `npm publish <tarball>` would upload.
 * References are built first (`tsc -b`), since a package's emit reads its dependencies' declarations.
 */
export async function packPackages(outDir: string): Promise<Record<Published, string>> {
  mkdirSync(outDir, { recursive: true });
  run(process.execPath, [TSC, '-b', ...PUBLISHED.map((pkg) => join(ROOT, 'packages', pkg))]);
  const tarballs = {} as Record<Published, string>;
  for (const pkg of PUBLISHED) tarballs[pkg] = await packOne(pkg, join(outDir, 'stage'), outDir);
  rmSync(join(outDir, 'stage'), { recursive: true, force: true });
  return tarballs;
}
