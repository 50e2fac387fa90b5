import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { hostAllowed, hostNameOf, isLoopbackHost, ownHostNames } from '../../src/http/host-names.js';
import { ALL_NOTES, createConnection } from '../mcp/support.js';
import { head, rawRequest, withBody } from './raw-client.js';
import { snapshot } from './snapshot.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'host-test', version: '1' },
  },
});

/** What the MCP conformance suite's DNS-rebinding scenario sends: the same name in Host and Origin. */
async function initialize(s: TestServer, token: string, host: string, origin?: string) {
  const port = Number(new URL(s.url).port);
  return rawRequest(
    port,
    withBody(
      'POST',
      '/mcp',
      {
        host,
        origin,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      INITIALIZE,
      port,
    ),
  );
}

describe.each(DIALECTS)('the Host rule ($name)', (dialect) => {
  it('reads a Host header as a name, and nothing that only looks like one', () => {
    expect(hostNameOf('LocalHost:3000')).toBe('localhost');
    expect(hostNameOf('[::1]:3000')).toBe('[::1]');
    expect(hostNameOf('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of [undefined, '', 'a@b', 'a/b', 'a b', 'a:b:c', 'a:123456'])
      expect(hostNameOf(bad), String(bad)).toBeUndefined();
    expect(isLoopbackHost('127.0.0.2')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });

  it('names the public origin’s host, the extra names, and the loopback names only when bound to loopback', () => {
    const base = { publicOrigin: 'https://diosc.example', allowedHosts: ['lan.example'] };
    expect([...ownHostNames({ ...base, host: '127.0.0.1' })].sort()).toEqual(
      ['127.0.0.1', '[::1]', 'diosc.example', 'lan.example', 'localhost'].sort(),
    );
    expect([...ownHostNames({ ...base, host: '0.0.0.0' })].sort()).toEqual(['diosc.example', 'lan.example']);
  });

  it('takes a loopback name only over a loopback connection on a server bound beyond loopback', () => {
    const names = ownHostNames({ host: '0.0.0.0', publicOrigin: 'https://diosc.example', allowedHosts: [] });
    expect(hostAllowed('diosc.example', names, '10.1.2.3')).toBe(true);
    expect(hostAllowed('127.0.0.1', names, '10.1.2.3')).toBe(false);
    expect(hostAllowed('localhost', names, '10.1.2.3')).toBe(false);
    expect(hostAllowed('127.0.0.1', names, '127.0.0.1')).toBe(true);
    expect(hostAllowed('[::1]', names, '::ffff:127.0.0.1')).toBe(true);
    expect(hostAllowed('evil.example', names, '127.0.0.1')).toBe(false);
    expect(hostAllowed(undefined, names, '127.0.0.1')).toBe(false);
  });

  it('a loopback-bound server answers its loopback names and origins on its port, and refuses others', async () => {
    server = await startTestServer({ dialect });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const answer = await initialize(server, token, `${name}:${port}`, `http://${name}:${port}`);
      expect(answer.status, name).toBe(200);
    }
    const before = await snapshot(server.store);
    const rebound = await initialize(server, token, 'evil.example.com', 'http://evil.example.com');
    expect(rebound.status).toBe(421);
    expect(rebound.json).toMatchObject({ error: { code: 'unknown_host' } });
    // A foreign Origin stays refused even with a good Host, and so does a loopback name on another port.
    for (const origin of [
      'http://evil.example.com',
      `http://localhost:${port + 1}`,
      `https://localhost:${port}`,
    ]) {
      const answer = await initialize(server, token, `127.0.0.1:${port}`, origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.json).toMatchObject({ error: { code: 'forbidden_origin' } });
    }
    expect(await snapshot(server.store)).toEqual(before);
  });

  it('a server bound beyond loopback answers only its public name and the listed extra names', async () => {
    server = await startTestServer({
      dialect,
      config: { host: '0.0.0.0', publicOrigin: 'https://diosc.example', allowedHosts: ['lan.example'] },
    });
    const port = Number(new URL(server.url).port);
    const status = async (host: string) =>
      (await rawRequest(port, head('GET', '/healthz', { host }, port))).status;
    expect(await status('diosc.example')).toBe(200);
    expect(await status('lan.example:3000')).toBe(200);
    // Reached over loopback (a health check in its container), its loopback names answer too.
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
    expect(await status('evil.example')).toBe(421);
    expect(await status('other.lan.example')).toBe(421);
  });
});
