import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../examples.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const data = mkdtempSync(join(tmpdir(), 'run-example-'));
const running: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `run-example.ts <name>` as `npm run example` starts it (after its build); resolves with what it printed. */
async function start(name: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/examples/run-example.ts', name], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DIOSC_EXAMPLE_DATA_DIR: data, ...env },
  });
  running.push(child);
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  const end = Date.now() + 30_000;
  while (!out.includes('Ctrl+C stops.')) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`the example did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return out;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  // `npm test` builds every workspace first; a lone run of this file builds Northwind itself.
  const dir = EXAMPLES.northwind.dir;
  if (!existsSync(join(dir, 'dist', 'index.html')))
    await build({ configFile: join(dir, 'vite.config.ts'), logLevel: 'silent' });
}, 60_000);
afterAll(async () => {
  for (const child of running) await stop(child);
  rmSync(data, { recursive: true, force: true });
});

describe('npm run example -- northwind', () => {
  it('starts the hub and the store on two origins, creates the assistant, prints the URL and the phrases', async () => {
    const [site, hub] = [await freePort(), await freePort()];
    const env = { DIOSC_EXAMPLE_PORT: String(site), DIOSC_EXAMPLE_HUB_PORT: String(hub) };
    const out = await start('northwind', env);
    expect(out).toContain(`Open http://localhost:${site}`);
    expect(out).toContain(`Hub: http://localhost:${hub}`);
    expect(out).toMatch(
      /Assistant "Northwind assistant" \(pk_[\w-]+\) on scripted model northwind \(not an AI\)/,
    );
    expect(out).toContain('• show me the cheapest tea (or coffee, cocoa, teaware)');
    const key = /\((pk_[\w-]+)\)/.exec(out)![1]!;
    const page = await (await fetch(`http://localhost:${site}/products/assam`)).text();
    expect(page).toContain(`<meta name="diosc-publishable-key" content="${key}" />`);
    expect(page).toContain(`<meta name="diosc-hub-url" content="http://localhost:${hub}" />`);
    // The assistant allows exactly the store's origin.
    const session = await fetch(`http://localhost:${hub}/api/hub/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${site}` },
      body: JSON.stringify({ publishableKey: key }),
    });
    expect(session.status).toBe(201);
    const elsewhere = await fetch(`http://localhost:${hub}/api/hub/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:1' },
      body: JSON.stringify({ publishableKey: key }),
    });
    expect(elsewhere.status).toBe(403);
    await stop(running.at(-1));

    // Again on the same store: the same assistant, updated in place, not a second one.
    const again = await start('northwind', env);
    expect(again).toContain(`(${key})`);
    expect(again).not.toContain('with password');
  });

  it('names the examples it knows when asked for another', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/examples/run-example.ts', 'nope'], {
      cwd: ROOT,
    });
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toBe('Usage: npm run example -- northwind|plynth\n');
  });
});
