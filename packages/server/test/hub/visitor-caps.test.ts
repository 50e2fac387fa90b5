import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { callJson, signIn } from '../owner/owner-client.js';
import { uploadFile } from './files/file-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
  server = undefined;
});

/** Opens an event stream and returns its raw answer (a refusal is read whole; a stream is left open). */
async function openStream(url: string, token: string, conversation: string, origin: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/hub/conversations/${conversation}/events`, {
    headers: { origin, authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  return { response, close: () => controller.abort() };
}

/** What must keep answering while visitors hold their caps: the owner API, a new visitor session, `/healthz`. */
async function othersStillAnswer(running: HubTestServer) {
  const owner = await signIn(running.url);
  expect((await callJson(running.url, '/activity', owner)).status).toBe(200);
  const health = await fetch(`${running.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });
}

async function expectRefused(response: Response, message: RegExp) {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(response.headers.get('retry-after')).toBe('1');
  const body = (await response.json()) as { error: { code: string; message: string; retryable: boolean } };
  expect(body.error).toMatchObject({ code: 'too_many_open', retryable: true });
  expect(body.error.message).toMatch(message);
}

describeOnDialects('visitor caps', () => {
  it('refuses one visitor session past its stream cap; the owner API, a new session and /healthz still answer', async () => {
    server = await startHubServer({
      script: [{ text: 'Still here.' }],
      http: { visitorStreamsPerSession: 2, visitorStreamsPerAddress: 10 },
    });
    const { client, conversation, stream } = await server.visit();
    const second = client.stream(conversation);
    await second.ready;
    const eventsBefore = await server.store.db
      .selectFrom('hub_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();

    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await openStream(server.url, client.token!, conversation, server.pageOrigin);
      await expectRefused(refused.response, /visitor session already has 2 open event streams/);
    }
    // Its other requests are not streams: they still run.
    expect((await client.view(conversation)).status).toBe(200);
    await othersStillAnswer(server);
    const other = server.client();
    await other.open(server.assistant.publishableKey);
    const otherStream = other.stream(await other.conversation());
    await otherStream.ready;
    otherStream.close();
    // Nothing was written by the refusals, and the streams it holds still deliver.
    expect(
      await server.store.db
        .selectFrom('hub_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(eventsBefore);
    await client.send(conversation, { text: 'Hello' });
    await stream.until('turn.done');
    await second.until('turn.done');
    stream.close();
    second.close();
  });

  it('refuses a visitor session past its requests in flight, and gives the slots back when they end', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    let onArrive = () => {};
    server = await startHubServer({
      http: { visitorRequestsPerSession: 2, visitorRequestsPerAddress: 10 },
      // Each upload stops inside its request, after its first chunk is stored, until released.
      hub: {
        hold: async (point) => {
          if (point.at !== 'file.chunk') return;
          arrived++;
          onArrive();
          await gate;
        },
      },
    });
    const { client, conversation, stream } = await server.visit();
    const uploads = ['a.txt', 'b.txt'].map((filename) =>
      uploadFile(client, conversation, {
        bytes: Buffer.from(`text of ${filename}`),
        filename,
        type: 'text/plain',
      }),
    );
    await new Promise<void>((resolve) => {
      onArrive = () => {
        if (arrived >= 2) resolve();
      };
      onArrive();
    });

    const refused = await fetch(`${server.url}/api/hub/conversations/${conversation}`, {
      headers: { origin: server.pageOrigin, authorization: `Bearer ${client.token}` },
    });
    await expectRefused(refused, /visitor session already has 2 requests in flight/);
    await othersStillAnswer(server);
    release();
    expect((await Promise.all(uploads)).map((upload) => upload.status)).toEqual([201, 201]);
    // The slots come back when each response is over (a count of attempts, never a wait on time).
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++)
      status = (await client.view(conversation)).status;
    expect(status).toBe(200);
    stream.close();
  });

  it('caps the streams of one client address across its visitor sessions', async () => {
    server = await startHubServer({ http: { visitorStreamsPerSession: 3, visitorStreamsPerAddress: 4 } });
    const a = await server.visit();
    const held = [a.stream, a.client.stream(a.conversation), a.client.stream(a.conversation)];
    const b = await server.visit();
    held.push(b.stream);
    await Promise.all(held.map((each) => each.ready));

    const refusedB = await openStream(server.url, b.client.token!, b.conversation, server.pageOrigin);
    await expectRefused(refusedB.response, /address already has 4 open event streams/);
    const c = server.client();
    await c.open(server.assistant.publishableKey);
    const refusedC = await openStream(server.url, c.token!, await c.conversation(), server.pageOrigin);
    await expectRefused(refusedC.response, /address already has 4 open event streams/);
    await othersStillAnswer(server);
    for (const each of held) each.close();
  });

  it('keeps a share of connections visitors cannot take: /mcp, the owner API and /healthz answer', async () => {
    server = await startHubServer({
      http: {
        maxConnections: 24,
        reservedConnections: 16,
        visitorStreamsPerSession: 4,
        visitorStreamsPerAddress: 100,
        maxConnectionsPerAddress: 100,
      },
    });
    const a = await server.visit();
    const b = await server.visit();
    const held = [a.stream, b.stream];
    for (let index = 0; index < 3; index++) held.push(a.client.stream(a.conversation));
    for (let index = 0; index < 3; index++) held.push(b.client.stream(b.conversation));
    await Promise.all(held.map((each) => each.ready));

    // Eight visitor streams are the visitors' share (24 − 16): any further visitor request waits.
    const refused = await openStream(server.url, b.client.token!, b.conversation, server.pageOrigin);
    await expectRefused(refused.response, /Visitors hold every connection/);
    const newSession = await fetch(`${server.url}/api/hub/sessions`, {
      method: 'POST',
      headers: { origin: server.pageOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ publishableKey: server.assistant.publishableKey }),
    });
    await expectRefused(newSession, /Visitors hold every connection/);
    expect(await server.store.db.selectFrom('hub_visitor_sessions').selectAll().execute()).toHaveLength(2);

    await othersStillAnswer(server);
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    // /mcp is reached and answers for itself (no token: its own 401), not the visitors' refusal.
    expect(mcp.status).toBe(401);
    for (const each of held) each.close();
  });

  it('refuses connections past the per-address cap at once, before any request runs', async () => {
    server = await startHubServer({ http: { maxConnectionsPerAddress: 3 } });
    const { port } = new URL(server.url);
    const sockets: Socket[] = [];
    for (let index = 0; index < 3; index++) {
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      sockets.push(socket);
    }
    const extra = connect(Number(port), '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      extra.on('data', (chunk) => {
        text += String(chunk);
      });
      extra.once('close', () => resolve(text));
      extra.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
    expect(answer).toContain('"code":"too_many_open"');
    expect(answer).toContain('This address has too many open connections');
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
  });

  it('ends a stream that stayed idle for its bound; resuming as the kit does misses nothing', async () => {
    server = await startHubServer({ script: [{ text: 'After the idle end.' }], http: { streamIdleMs: 300 } });
    const { client, conversation, stream } = await server.visit();
    // Nothing to say: the server ends the stream by itself (awaited, not slept on).
    await stream.ended;
    expect(stream.events).toEqual([]);
    await client.send(conversation, { text: 'Hello' });
    // Resume from the last id seen, as the kit does after any end, until the turn is done: the ids
    // seen are the whole log, in order, once each — whatever ended in between.
    const seen: { id: number; type: string }[] = [];
    while (!seen.some((event) => event.type === 'turn.done')) {
      const resumed = client.stream(conversation, seen.at(-1)?.id ?? 0);
      await resumed.ready;
      await Promise.race([resumed.until('turn.done').catch(() => undefined), resumed.ended]);
      resumed.close();
      seen.push(...resumed.events.map(({ id, type }) => ({ id, type })));
    }
    expect(seen.map((event) => event.id)).toEqual(
      Array.from({ length: seen.length }, (_, index) => index + 1),
    );
  });
});
