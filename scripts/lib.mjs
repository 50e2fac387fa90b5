// Shared helpers of the project scripts: run a command, install what the project needs.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function must(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} exited with ${status}`);
    process.exit(status);
  }
}

/**
 * npm ci when node_modules is missing or older than the lockfile — of the workspace, or of a tool
 * folder with its own lockfile (`tools/mcp-conformance`, whose Node 22 must not shadow ours).
 */
export function ensureDependencies(folder = '.') {
  const dir = join(root, folder);
  const marker = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    console.log(`› Installing dependencies of ${folder} (npm ci)…`);
    must('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir });
  }
}

/** True on a CI runner (`CI=true`, or any value but `false`/`0`): nothing may be skipped there. */
export function isCi() {
  const value = process.env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/** Stops the run (under CI, or for anything that cannot be skipped) with the reason. */
export function fail(message) {
  console.error(`\n✗ ${message}`);
  process.exit(1);
}

/** A skip outside CI is loud: a framed banner, repeated in the closing summary. */
export function banner(message) {
  const line = '!'.repeat(Math.min(100, message.length + 4));
  console.warn(`\n${line}\n! ${message}\n${line}\n`);
}

/** The browser the e2e suites launch (e2e/support/chromium.ts reads the same variable). */
export const chromiumPath = process.env.DIOSC_CHROMIUM ?? '/usr/bin/chromium';

/** What the browser says it is (`Chromium 142.0…`), for the closing summary. */
export function chromiumVersion() {
  const result = spawnSync(chromiumPath, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 ? result.stdout.trim() : `${chromiumPath} (version unknown)`;
}

/**
 * Debian's Chromium, installed through apt when absent (tests never download a browser). There is
 * no skip: without it the browser suites cannot run, so the run stops here, in CI and out of it.
 */
export function ensureChromium() {
  if (existsSync(chromiumPath)) return chromiumPath;
  if (process.getuid?.() !== 0) {
    fail(
      `Chromium is missing at ${chromiumPath}: run \`sudo apt-get install -y chromium\` (Debian) and retry.`,
    );
  }
  console.log('› Installing Debian chromium…');
  must('apt-get', ['update', '-qq']);
  must('apt-get', ['install', '-y', '-qq', 'chromium'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!existsSync(chromiumPath)) fail(`apt installed chromium, but ${chromiumPath} is still missing.`);
  return chromiumPath;
}

/**
 * A digest of the working tree against HEAD — status, content and file-mode changes — or null
 * outside a git checkout. Equal before and after a run means the run changed no tracked file.
 */
export function treeState() {
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const status = git(['status', '--porcelain=v1', '--untracked-files=all']);
  if (status.status !== 0) return null;
  const diff = git(['diff', 'HEAD', '--binary']);
  return createHash('sha256')
    .update(status.stdout)
    .update(diff.stdout ?? '')
    .digest('hex');
}
