// `npm run cluster`: two Diosc instances over one throwaway PostgreSQL, on two ports, for trying what
// docs/operations.md describes. No docker: the PostgreSQL is Debian's, in a temp directory
// (scripts/postgres.mjs), removed again on Ctrl-C. `npm run cluster -- --no-build` skips the build;
// `--pg-port N` (or DIOSC_CLUSTER_PG_PORT) puts PostgreSQL on port N instead of a free one.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mustBeBuilt } from './builds.mjs';
import { ensureDependencies, root } from './lib.mjs';
import { portOption, startPostgres } from './postgres.mjs';

const PORTS = (process.env.DIOSC_CLUSTER_PORTS ?? '3001,3002').split(',').map(Number);
const NAMES = ['a', 'b', 'c', 'd'];

let options;
try {
  const { values } = parseArgs({
    options: { 'no-build': { type: 'boolean', default: false }, 'pg-port': { type: 'string' } },
  });
  // The flag wins over the environment.
  const [pgPort, pgPortName] =
    values['pg-port'] === undefined
      ? [process.env.DIOSC_CLUSTER_PG_PORT, 'DIOSC_CLUSTER_PG_PORT']
      : [values['pg-port'], '--pg-port'];
  options = { build: !values['no-build'], pgPort: portOption(pgPort, pgPortName) };
} catch (error) {
  console.error(`✗ ${error.message}\n  usage: npm run cluster -- [--no-build] [--pg-port N]`);
  process.exit(2);
}

ensureDependencies();
if (options.build) mustBeBuilt(['@diosc/kit', '@diosc/portal', '@diosc/server'], { log: console.log });

const postgres = await startPostgres({ port: options.pgPort }).catch((error) => {
  console.error(`✗ The cluster needs PostgreSQL. ${error.message}`);
  process.exit(1);
});
const dir = mkdtempSync(join(tmpdir(), 'diosc-cluster-'));
// Every instance must share the secret key (stored secrets are sealed with it) and the owner.
const shared = {
  DATABASE_URL: postgres.url,
  DIOSC_SECRET_KEY: randomBytes(32).toString('hex'),
  DIOSC_OWNER_PASSWORD: randomBytes(12).toString('base64url'),
};
const children = [];

/** Starts one instance and resolves once it serves (its banner line), its output prefixed. */
function startInstance(name, port) {
  const child = spawn(process.execPath, ['packages/server/dist/diosc.js', 'start'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...shared,
      DIOSC_PORT: String(port),
      DIOSC_PUBLIC_ORIGIN: `http://localhost:${port}`,
      DIOSC_DATA_DIR: join(dir, name),
    },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let banner = '';
    const relay = (stream, out) => {
      let buffer = '';
      stream.on('data', (chunk) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          // The banner names a password on first run: the cluster prints its own sign-in instead.
          if (!line.includes('password')) out.write(`[${name}] ${line}\n`);
          banner += `${line}\n`;
          if (line.includes('Diosc is running')) resolve(child);
        }
      });
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('exit', (code, signal) => {
      reject(new Error(`instance ${name} exited (${signal ?? code}) before serving:\n${banner}`));
      if (!stopping) void stop(1);
    });
  });
}

let stopping = false;
async function stop(status = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\n› Stopping the instances and PostgreSQL…');
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(status);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

try {
  // The first migrates the database and creates the owner; the others then start on a ready store.
  await startInstance(NAMES[0], PORTS[0]);
  await Promise.all(PORTS.slice(1).map((port, index) => startInstance(NAMES[index + 1], port)));
} catch (error) {
  console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
}

const urls = PORTS.map((port) => `http://localhost:${port}`);
console.log(
  [
    '',
    `  Diosc cluster: ${PORTS.length} instances over one PostgreSQL (${postgres.url})`,
    ...urls.map((url, index) => `    instance ${NAMES[index]}: ${url}`),
    `  Sign in on any of them as owner@localhost with password: ${shared.DIOSC_OWNER_PASSWORD}`,
    '  (a session is in the store, so it holds on every instance; sign in at the instance you opened)',
    '  Ctrl-C stops everything and deletes the database.',
    '',
  ].join('\n'),
);
