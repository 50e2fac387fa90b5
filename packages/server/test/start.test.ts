import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { freePort } from '../src/testing/test-server.js';
import { postMcp } from './mcp/support.js';
import { startCollector } from './observability/collector.js';
import { ensureBuilt, ROOT } from './support/built-bin.js';

const METRICS_TOKEN = 'start-test-metrics-token-0123456789abcdef';

// What `npm start` builds, fresh beforehand: the run below must then build nothing.
ensureBuilt('@diosc/kit', '@diosc/portal', '@diosc/server');

describe('npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-start-'));
  let child: ChildProcess | undefined;
  const onExit: (() => Promise<void>)[] = [];
  afterAll(async () => {
    child?.kill('SIGTERM');
    for (const step of onExit) await step();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints one origin, the one sign-in works on, the Demo assistant’s preview there, and leaves it for the CLI; counts and traces what it serves', async () => {
    const port = await freePort();
    // Metrics and traces on, as an operator turns them on: the build's own span sending thread
    // delivers to this collector.
    const collector = await startCollector();
    onExit.push(collector.close);
    // scripts/start.mjs is what `npm start` runs (npm itself adds nothing but its own start-up).
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DIOSC_DATA_DIR: dir,
        DIOSC_PORT: String(port),
        DIOSC_OWNER_PASSWORD: 'start pass',
        DIOSC_METRICS_TOKEN: METRICS_TOKEN,
        DIOSC_TRACES_OTLP_URL: collector.url,
      },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const deadline = Date.now() + 20_000;
    while (!output.includes('Diosc is running') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 100));
    }
    // Whatever else is logged right after the banner counts too.
    await new Promise((done) => setTimeout(done, 300));
    const addresses = new Set([...output.matchAll(/https?:\/\/[^\s"'`)]+/g)].map((match) => match[0]));
    const address = `http://localhost:${port}`;
    expect(new Set([...addresses].map((url) => new URL(url).origin))).toEqual(new Set([address]));
    expect(addresses).toContain(address);

    const signIn = await fetch(`${address}/api/owner/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: address },
      body: JSON.stringify({ email: 'owner@localhost', password: 'start pass' }),
    });
    expect(signIn.status).toBe(200);
    // The first run's Demo assistant: its live preview opens in the browser that signed in.
    const preview = /Try it \(once signed in\): (\S+)/.exec(output)?.[1];
    expect(preview).toBeDefined();
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const page = await fetch(preview!, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Preview: Demo assistant</h1>');

    // The CLI in another shell, without DIOSC_PORT: it names the port this server runs on.
    const { DIOSC_PORT: _port, DIOSC_PUBLIC_ORIGIN: _origin, DIOSC_CONFIG: _config, ...shell } = process.env;
    let printed = '';
    const code = await runCli(['connections', 'create', '--name', 'Agent', '--grant', 'inbox:items_list'], {
      out: (line) => {
        printed += `${line}\n`;
      },
      err: (text) => {
        printed += text;
      },
      env: { ...shell, DIOSC_DATA_DIR: dir, DIOSC_LOG_LEVEL: 'silent' },
    });
    expect(code).toBe(0);
    const mcpUrl = /MCP URL: (\S+)/.exec(printed)?.[1];
    expect(mcpUrl).toBe(`${address}/mcp`);
    const token = /Token \(shown once; copy it now\): (dsc_\S+)/.exec(printed)![1];
    const tools = await postMcp(
      { url: new URL(mcpUrl!).origin },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(tools.status).toBe(200);
    const call = await postMcp(
      { url: address },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'items_list', arguments: { collection: 'inbox' } },
      },
      { authorization: `Bearer ${token}` },
    );
    expect(call.status).toBe(200);
    const metrics = await fetch(`${address}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await metrics.text()).toMatch(/^diosc_mcp_calls_total\{function="items_list",code="ok"\} 1$/m);

    // Fresh outputs were not rebuilt (nor any example built: it builds only what it serves), and
    // a SIGTERM to the process `npm start` runs stops the server itself, through its clean shutdown.
    expect(output).not.toContain('› Building');
    expect(output).not.toContain('Installing dependencies');
    const running = child;
    const exited = new Promise<number | null>((done) => running.once('exit', (code) => done(code)));
    running.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Its shutdown sent the span of that call; protobuf keeps strings as their bytes.
    const spans = Buffer.concat(collector.requests.map(({ body }) => body)).toString('latin1');
    expect(spans).toContain('diosc.mcp_call');
    expect(spans).toContain('items_list');
    expect(spans).not.toContain(token);
  });
});
