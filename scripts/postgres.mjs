// A throwaway PostgreSQL server for the store suites: Debian's postgresql package, a fresh cluster in
// a temp directory on a loopback port, stopped and removed after the run. Skipped when
// DIOSC_SKIP_POSTGRES=1; installed through apt when absent and running as root.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { must } from './lib.mjs';

function binDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

export async function startPostgres() {
  if (process.env.DIOSC_SKIP_POSTGRES === '1') return undefined;
  if (!binDir()) {
    if (process.getuid?.() !== 0) {
      console.warn('PostgreSQL is not installed; the store suites run on SQLite only.');
      return undefined;
    }
    console.log('› Installing Debian postgresql…');
    must('apt-get', ['update', '-qq']);
    must('apt-get', ['install', '-y', '-qq', 'postgresql'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'diosc-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = 55_000 + (process.pid % 1000);
  // initdb refuses to run as root; run the cluster as Debian's postgres user.
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const exec = (args) => {
    const [command, ...rest] = [...asPostgres, ...args];
    const result = spawnSync(command, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
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
