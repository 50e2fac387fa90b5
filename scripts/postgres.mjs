// A throwaway PostgreSQL server for the store suites: Debian's postgresql package, a fresh cluster in
// a temp directory on a loopback port, stopped and removed after the run. Installed through apt when
// absent and running as root. Outside CI it can be skipped (DIOSC_SKIP_POSTGRES=1, or not installed
// and not root) with a banner; under CI both are refused: the run fails before any test starts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { banner, fail, isCi, must } from './lib.mjs';

function binDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

/**
 * Decides before anything runs whether this run has PostgreSQL: installs it when it can, fails under
 * CI when it cannot, and otherwise returns false after a banner (the summary repeats the skip).
 */
export function preparePostgres() {
  if (process.env.DIOSC_SKIP_POSTGRES === '1') {
    if (isCi())
      fail('DIOSC_SKIP_POSTGRES=1 is refused under CI: every dialect suite must run on PostgreSQL.');
    banner('DIOSC_SKIP_POSTGRES=1: the dialect suites run on SQLite only (PostgreSQL skipped).');
    return false;
  }
  if (binDir()) return true;
  if (process.getuid?.() !== 0) {
    if (isCi())
      fail('PostgreSQL is not installed and the runner is not root: CI cannot run the PostgreSQL suites.');
    banner(
      'PostgreSQL is not installed (and not root to install it): the dialect suites run on SQLite only.',
    );
    return false;
  }
  console.log('› Installing Debian postgresql…');
  must('apt-get', ['update', '-qq']);
  must('apt-get', ['install', '-y', '-qq', 'postgresql'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!binDir()) fail('apt installed postgresql, but /usr/lib/postgresql has no server binaries.');
  return true;
}

/** A loopback TCP port nothing listens on right now: the one the system gives a socket bound to 0. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A port given on the command line or in the environment (`undefined` when not given), refused
 * unless it is a whole number from 1 to 65535.
 */
export function portOption(value, name) {
  if (value === undefined || value === '') return undefined;
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65_535))
    throw new Error(`${name} takes a port from 1 to 65535, not "${value}".`);
  return port;
}

/**
 * Starts the throwaway cluster (after `preparePostgres()` returned true) on `port`, or on a free
 * loopback port when none is given: one the system picks for a socket bound to port 0, so two runs
 * side by side (two worktrees, a test run and `npm run cluster`) do not collide.
 */
export async function startPostgres({ port: chosen } = {}) {
  const bin = binDir();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql).');
  const port = chosen ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'diosc-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  // initdb refuses to run as root; run the cluster as Debian's postgres user.
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const exec = (args) => {
    const [command, ...rest] = [...asPostgres, ...args];
    const result = spawnSync(command, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  try {
    exec([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    exec([
      join(bin, 'pg_ctl'),
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  } catch (error) {
    // The server's own log says why (a port in use shows as "could not bind"); it goes with the dir.
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim() : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `PostgreSQL did not start on 127.0.0.1:${port}: ${error.message}${log ? `\n${log}` : ''}`,
    );
  }
  console.log(`› PostgreSQL ${bin.split('/').at(-2)} on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        exec([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
