import { loadConfig } from '@diosc/server';
import { startTestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadFile } from '../hub/files/file-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../hub/support/hub-server.js';
import { planWrite } from '../hub/support/plan-write.js';
import { connectClient, createConnection } from '../mcp/support.js';
import { parseScrape, type Scrape, scrape } from './scrape.js';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const VISITOR_TEXT = 'Please highlight product 42 for Ada Lovelace';

const HIGHLIGHT = {
  name: 'highlight_row',
  description: 'Highlight a row of the products table.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string' } },
  },
};

const write = planWrite('req-metrics-1');

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('metrics configuration', () => {
  it('is off by default, and refuses a short token or a bad port', () => {
    const config = loadConfig({}, '/tmp');
    expect(config.metricsToken).toBeUndefined();
    expect(config.metricsPort).toBeUndefined();
    expect(() => loadConfig({ DIOSC_METRICS_TOKEN: 'short' }, '/tmp')).toThrow(/DIOSC_METRICS_TOKEN/);
    expect(() => loadConfig({ DIOSC_METRICS_PORT: 'x' }, '/tmp')).toThrow(/DIOSC_METRICS_PORT/);
    expect(loadConfig({ DIOSC_METRICS_PORT: '9464' }, '/tmp')).toMatchObject({
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
    });
  });
});

describeOnDialects('/metrics', (dialect) => {
  it('is not served when off: the route does not exist', async () => {
    const plain = await startTestServer({ dialect });
    try {
      const response = await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await plain.close();
    }
  });

  it('asks the bearer token on the public port', async () => {
    server = await startHubServer({ config: { metricsToken: TOKEN } });
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
      const response = await fetch(`${server.url}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: {
          code: 'unauthenticated',
          message: 'Scraping /metrics needs the bearer token of DIOSC_METRICS_TOKEN.',
          retryable: false,
        },
      });
    }
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const metrics = parseScrape(await response.text());
    // The Node runtime's own metrics come along.
    expect(metrics.text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(metrics.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(metrics.text).toContain('# TYPE diosc_turns_started_total counter');
  });

  it('serves only /metrics on a port of its own, and nothing on the public one', async () => {
    server = await startHubServer({ config: { metricsPort: 0, metricsHost: '127.0.0.1' } });
    const address = server.app.metricsServer?.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const own = `http://127.0.0.1:${port}`;
    expect((await scrape(`${own}/metrics`)).text).toContain('diosc_event_streams_open');
    const other = await fetch(`${own}/healthz`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('moves by exactly one scripted turn, and carries no id, text or secret of it', async () => {
    server = await startHubServer({
      config: { metricsToken: TOKEN },
      script: [
        { text: 'Highlighting.', toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
        { toolCalls: [{ toolName: 'item_write', input: write }] },
        { text: 'Done.' },
      ],
      assistant: {
        browserTools: [HIGHLIGHT],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_write'] }] },
          consensus: { item_write: 'high' },
        },
      },
    });
    const assistant = server.assistant.id;
    const url = `${server.url}/metrics`;
    const { client, conversation, stream } = await server.visit();
    const before = await scrape(url, TOKEN);
    const moved = (after: Scrape, name: string, labels?: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    await client.send(conversation, {
      text: VISITOR_TEXT,
      registry: { tools: ['highlight_row'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    const waiting = await scrape(url, TOKEN);
    expect(waiting.value('diosc_interrupts_waiting', { kind: 'interrupt' })).toBe(1);
    expect(waiting.value('diosc_event_streams_open')).toBe(1);
    expect(moved(waiting, 'diosc_turns_started_total', { assistant })).toBe(1);

    await client.answer(interrupt.id, { result: { highlighted: '42' } });
    const { request } = await stream.until('consensus.requested');
    const deciding = await scrape(url, TOKEN);
    expect(deciding.value('diosc_interrupts_waiting', { kind: 'interrupt' })).toBe(0);
    expect(deciding.value('diosc_interrupts_waiting', { kind: 'consensus' })).toBe(1);
    await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest });
    await stream.until('turn.done');

    const after = await scrape(url, TOKEN);
    expect(moved(after, 'diosc_turns_started_total', { assistant })).toBe(1);
    expect(moved(after, 'diosc_turns_finished_total', { assistant })).toBe(1);
    expect(after.text).not.toContain('diosc_turns_failed_total{');
    expect(moved(after, 'diosc_model_step_duration_seconds_count', { assistant, outcome: 'ok' })).toBe(3);
    expect(moved(after, 'diosc_model_step_duration_seconds_count', { assistant, outcome: 'error' })).toBe(0);
    expect(moved(after, 'diosc_browser_round_trip_seconds_count', { assistant })).toBe(1);
    expect(moved(after, 'diosc_consensus_decisions_total', { assistant, outcome: 'approve' })).toBe(1);
    expect(after.value('diosc_interrupts_waiting', { kind: 'interrupt' })).toBe(0);
    expect(after.value('diosc_interrupts_waiting', { kind: 'consensus' })).toBe(0);
    expect(moved(after, 'diosc_store_errors_total')).toBe(0);
    expect(moved(after, 'diosc_files_stored_total', { source: 'upload' })).toBe(0);

    // Labels are assistant ids, codes and names of the catalog: nothing of the visitor or the turn.
    const { turnId } = stream.ofType('turn.done')[0]!;
    for (const secret of [
      VISITOR_TEXT,
      'Ada',
      TOKEN,
      conversation,
      turnId,
      interrupt.id,
      server.assistant.publishableKey,
    ]) {
      expect(after.text).not.toContain(secret);
    }
    stream.close();
  });

  it('counts a failed turn by code, its model step as an error, and an approval nobody decided', async () => {
    server = await startHubServer({
      config: { metricsToken: TOKEN },
      script: (call) => {
        if (call.index === 0) return { toolCalls: [{ toolName: 'item_write', input: write }] };
        throw new Error('provider down for Ada Lovelace');
      },
      assistant: {
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
          consensus: { item_write: 'high' },
        },
        limits: { consensusTimeoutMs: 1_000 },
      },
      hub: { sweepIntervalMs: 50 },
    });
    const assistant = server.assistant.id;
    const url = `${server.url}/metrics`;
    const before = await scrape(url, TOKEN);
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: VISITOR_TEXT });
    await stream.until('consensus.requested');
    const failed = await stream.until('turn.failed', () => true, 20_000);
    expect(failed.error.code).toBe('model_failed');
    const after = await scrape(url, TOKEN);
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(moved('diosc_consensus_decisions_total', { assistant, outcome: 'timed_out' })).toBe(1);
    expect(moved('diosc_turns_failed_total', { assistant, code: 'model_failed' })).toBe(1);
    expect(moved('diosc_turns_finished_total', { assistant })).toBe(0);
    expect(moved('diosc_model_step_duration_seconds_count', { assistant, outcome: 'ok' })).toBe(1);
    expect(moved('diosc_model_step_duration_seconds_count', { assistant, outcome: 'error' })).toBe(1);
    expect(after.text).not.toContain('Ada');
    expect(after.text).not.toContain('provider down');
    stream.close();
  });

  it('counts /mcp calls by catalog function and code, an unknown name as one bounded value', async () => {
    server = await startHubServer({ config: { metricsToken: TOKEN } });
    const url = `${server.url}/metrics`;
    const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const mcp = await connectClient(server, connection.token);
    const before = await scrape(url, TOKEN);
    await mcp.callTool({ name: 'items_list', arguments: { collection: 'notes' } });
    await mcp.callTool({ name: 'items_list', arguments: { collection: 'drive' } });
    await expect(mcp.callTool({ name: 'made_up_tool_of_visitor_ada', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await mcp.close();
    const after = await scrape(url, TOKEN);
    const moved = (labels: Record<string, string>) =>
      after.value('diosc_mcp_calls_total', labels) - before.value('diosc_mcp_calls_total', labels);
    expect(moved({ function: 'items_list', code: 'ok' })).toBe(1);
    expect(moved({ function: 'items_list', code: 'not_granted' })).toBe(1);
    expect(moved({ function: 'unknown', code: 'unknown_tool' })).toBe(1);
    expect(after.text).not.toContain('made_up_tool');
    expect(after.text).not.toContain(connection.token);
    expect(after.text).not.toContain(connection.id);
  });

  it('counts stored files and failed store statements, and not the event log’s expected id races', async () => {
    server = await startHubServer({ config: { metricsToken: TOKEN } });
    const url = `${server.url}/metrics`;
    const before = await scrape(url, TOKEN);
    const { client, conversation } = await server.visit();
    const upload = await uploadFile(client, conversation, {
      filename: 'notes.txt',
      type: 'text/plain',
      bytes: 'hello',
    });
    expect(upload.status).toBe(201);
    // A statement the store refuses (no such table), run through the app's own store.
    await expect(
      server.store.db
        .selectFrom('no_such_table' as 'items')
        .selectAll()
        .execute(),
    ).rejects.toThrow();
    // A unique-key violation is the expected race the event log retries on: not a store error.
    await expect(
      server.store.db
        .insertInto('accounts')
        .values({
          id: server.accountId,
          email: 'x@localhost',
          display_name: 'X',
          password_hash: null,
          created_at: 0,
        })
        .execute(),
    ).rejects.toThrow();
    const after = await scrape(url, TOKEN);
    expect(
      after.value('diosc_files_stored_total', { source: 'upload' }) -
        before.value('diosc_files_stored_total', { source: 'upload' }),
    ).toBe(1);
    expect(after.value('diosc_store_errors_total') - before.value('diosc_store_errors_total')).toBe(1);
  });
});
