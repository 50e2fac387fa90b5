import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Like every PostgreSQL suite: there when `npm test` started PostgreSQL (always under CI), so its
// binaries are installed.
const withPostgres = Boolean(process.env.DIOSC_TEST_POSTGRES_URL);

interface Postgres {
  url: string;
  stop(): Promise<void>;
}
type StartPostgres = (options?: { port?: number }) => Promise<Postgres>;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The port the PostgreSQL at `url` says it listens on. */
async function serverPort(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ port: string }>('show port');
    return Number(rows[0]!.port);
  } finally {
    await client.end();
  }
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGINT');
});

/**
 * `npm run cluster -- --no-build …` (plain Node) until it says where its PostgreSQL listens or
 * exits; then Ctrl-C, which stops the instances (still starting) and deletes the database.
 */
async function clusterPostgres(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/cluster.mjs', '--no-build', ...args], {
    cwd: ROOT,
    env: { ...process.env, DIOSC_CLUSTER_PORTS: String(await freePort()), ...env },
  });
  running.push(child);
  let output = '';
  const announced = await new Promise<number | undefined>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PostgreSQL \S+ on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => resolve(undefined));
  });
  const port = announced && (await serverPort(`postgres://postgres@127.0.0.1:${announced}/postgres`));
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  child.kill('SIGINT');
  return { announced, port, output, code: await exited };
}

describe('npm run cluster: the PostgreSQL port', () => {
  it('refuses a --pg-port that is not a port, before starting anything', async () => {
    const run = await clusterPostgres(['--pg-port', 'eighty'], {});
    expect(run.code).toBe(2);
    expect(run.output).toContain('--pg-port takes a port from 1 to 65535, not "eighty"');
    expect(run.output).not.toContain('PostgreSQL 1');
  });
});

if (withPostgres)
  describe('npm run cluster: the PostgreSQL it starts', () => {
    it('puts PostgreSQL on the port --pg-port names', async () => {
      const port = await freePort();
      const run = await clusterPostgres(['--pg-port', String(port)], {});
      expect(run.announced).toBe(port);
      expect(run.port).toBe(port);
    });

    it('takes DIOSC_CLUSTER_PG_PORT when no flag is given', async () => {
      const port = await freePort();
      const run = await clusterPostgres([], { DIOSC_CLUSTER_PG_PORT: String(port) });
      expect(run.port).toBe(port);
    });

    it('without either, two servers started by one process get two free ports', async () => {
      const { startPostgres } = (await import(pathToFileURL(`${ROOT}scripts/postgres.mjs`).href)) as {
        startPostgres: StartPostgres;
      };
      const first = await startPostgres();
      try {
        const second = await startPostgres();
        try {
          const ports = [await serverPort(first.url), await serverPort(second.url)];
          expect(new Set(ports).size).toBe(2);
        } finally {
          await second.stop();
        }
      } finally {
        await first.stop();
      }
    });
  });
