import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outsideEnv } from '../../../scripts/pack/outside-env.js';
import { type Published, packPackages } from '../../../scripts/pack/pack-packages.js';

const APP = fileURLToPath(new URL('../app/', import.meta.url));

export interface FreshApp {
  /** The app's folder, outside the workspace. */
  dir: string;
  tarballs: Record<Published, string>;
  /** What `npm install` printed, warnings included. */
  installOutput: string;
  /** Runs a command in the app's folder; returns stdout and stderr, or throws with them. */
  run(command: string, args: string[]): string;
  remove(): void;
}

/**
 * The packages as a user meets them: packed to tarballs, installed with npm into a new app under
 * the OS temp folder (no workspace above it), next to the app's own pinned tools.
 */
export async function createFreshApp(tools: {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}): Promise<FreshApp> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-fresh-app-'));
  try {
    const tarballs = await packPackages(join(dir, 'tarballs'));
    const app = join(dir, 'app');
    cpSync(APP, app, { recursive: true });
    const packed = Object.fromEntries(
      Object.entries(tarballs).map(([pkg, tarball]) => [`@diosc/${pkg}`, `file:${tarball}`]),
    );
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify(
        {
          name: 'fresh-diosc-app',
          private: true,
          type: 'module',
          dependencies: { ...packed, ...tools.dependencies },
          devDependencies: tools.devDependencies,
          // The packages' own `@diosc/*` dependencies are the tarballs too, never a registry package.
          overrides: Object.fromEntries(Object.keys(packed).map((name) => [name, `$${name}`])),
        },
        null,
        2,
      )}\n`,
    );
    const run = (command: string, args: string[]) => {
      const result = spawnSync(command, args, { cwd: app, env: outsideEnv(), encoding: 'utf8' });
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
      if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${output}`);
      return output;
    };
    const installOutput = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
    return {
      dir: app,
      tarballs,
      installOutput,
      run,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
