import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_NOTES, createConnection, postMcp } from './support.js';

// The collector, to weigh what is still reachable (a heap measured after a full collection is
// deterministic enough to compare in megabytes; no timing is involved).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/**
 * `/mcp` builds a fresh SDK server and transport per request and closes them only when the client
 * left before its answer (see `mcp/plugin.ts`). A finished exchange must then leave nothing
 * reachable: thousands of calls may not grow the heap by more than a few megabytes, where keeping
 * each request's server and transport would take tens.
 */
describe.each(DIALECTS)('HTTP MCP leaves nothing behind a finished call ($name)', (dialect) => {
  let server: TestServer;
  let token: string;
  const CALLS = 4_000;

  beforeAll(async () => {
    // The per-caller rate limit is not what this measures.
    server = await startTestServer({ dialect, limits: { callsPerMinutePerCaller: 100_000 } });
    ({ token } = await createConnection(server, [ALL_NOTES]));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function calls(count: number, lanes = 4) {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'items_list', arguments: { collection: 'notes' } },
    };
    let statuses = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let i = 0; i < count / lanes; i++) {
          const response = await postMcp(server, body, { authorization: `Bearer ${token}` });
          await response.text();
          if (response.status === 200) statuses++;
        }
      }),
    );
    return statuses;
  }

  it('thousands of answered calls leave the heap where it was', async () => {
    expect(await calls(400)).toBe(400);
    const before = heapAfterCollection();
    expect(await calls(CALLS)).toBe(CALLS);
    const grown = heapAfterCollection() - before;
    // Each request's server and transport kept alive would be well over 2 KB a call.
    expect(grown, `the heap grew ${grown} bytes`).toBeLessThan(CALLS * 2_000);
  }, 120_000);
});
