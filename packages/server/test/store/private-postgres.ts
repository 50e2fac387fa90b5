import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@diosc/server/testing';

/**
 * A PostgreSQL cluster of one test's own, which it may stop and start again on the same port with
 * its data kept — unlike the shared test server (`scripts/postgres.mjs`), which other suites use at
 * the same time. Same Debian binaries; run as `postgres` when the test runs as root (initdb refuses
 * root).
 */
export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  /** Stops it (when running) and removes its directory. */
  dispose(): void;
}

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new Error('PostgreSQL is not installed (Debian package postgresql).');
  return join(base, versions[0], 'bin');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'diosc-pg-own-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const exec = (args: string[]) => {
    const [command, ...rest] = [...asPostgres, ...args] as [string, ...string[]];
    const result = spawnSync(command, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  let running = false;
  const start = () => {
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
    running = true;
  };
  // `fast` ends every session (the server's pooled connections see their sockets close), as a
  // restart or failover would.
  const stop = () => {
    exec([join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  try {
    exec([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    dispose() {
      try {
        if (running) stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
