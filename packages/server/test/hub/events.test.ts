import { randomUUID } from 'node:crypto';
import { HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import { afterEach, expect, it, vi } from 'vitest';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog } from '../../src/hub/events/event-log.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describeOnDialects('the event stream', () => {
  it('resumes exactly after Last-Event-ID following a dropped connection: no gap, no repeat', async () => {
    server = await startHubServer({
      script: [
        { text: 'Reading the page now.', toolCalls: [{ toolName: 'read_page', input: {} }] },
        { text: 'The page shows the catalogue.' },
      ],
    });
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const conversation = await client.conversation();
    const first = client.stream(conversation);
    await first.ready;
    await client.send(conversation, { text: 'Read it', registry: { tools: ['read_page'], intents: [] } });
    const { interrupt } = await first.until('interrupt');
    first.close();
    const seen = first.events.map((event) => event.id);
    const lastSeen = seen.at(-1)!;

    // While no one listens, the turn goes on.
    await client.answer(interrupt.id, { result: { content: 'catalogue' } });
    const second = client.stream(conversation, lastSeen);
    await second.ready;
    await second.until('turn.done');
    const resumed = second.events.map((event) => event.id);
    expect(resumed[0]).toBe(lastSeen + 1);
    const all = [...seen, ...resumed];
    expect(all).toEqual(Array.from({ length: all.length }, (_, index) => index + 1));
    second.close();

    // `?after=` does the same for clients that cannot set headers; ids are increasing per conversation.
    const replay = await fetch(
      `${server.url}/api/hub/conversations/${conversation}/events?after=${lastSeen}`,
      {
        headers: {
          origin: server.pageOrigin,
          authorization: `Bearer ${client.token}`,
          accept: 'text/event-stream',
        },
        signal: AbortSignal.timeout(1_000),
      },
    ).catch(() => undefined);
    expect(replay?.headers.get('content-type')).toContain('text/event-stream');
    expect(replay?.headers.get('cache-control')).toBe('no-store');
    // A proxy in front (nginx) must not hold events back to fill a buffer.
    expect(replay?.headers.get('x-accel-buffering')).toBe('no');
    await replay?.body?.cancel();
  });

  it('hears this process’s own appends with no look at the log, in order, and lets go of the conversation on close', async () => {
    // The log watch never runs here: every event must come from the bus or the stream's own reads.
    server = await startHubServer({
      script: [
        { text: 'Reading.', toolCalls: [{ toolName: 'read_page', input: {} }] },
        { text: 'Read it all.' },
      ],
      hub: { eventPollMs: 3_600_000 },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Read it', registry: { tools: ['read_page'], intents: [] } });
    const { interrupt } = await stream.until('interrupt', () => true, 10_000);
    await client.answer(interrupt.id, { result: { content: 'page' } });
    await stream.until('message', (event) => event.message.text.includes('Read it all.'), 10_000);
    await stream.until('turn.done', () => true, 10_000);
    const ids = stream.events.map((event) => event.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    const bus = server.app.diosc.hub!.services.bus;
    expect(bus.watched()).toEqual([conversation]);
    stream.close();
    for (let tries = 0; bus.watched().length > 0 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(bus.watched()).toEqual([]);
  });

  it('delivers an event this process was never told about (written by another instance) from the log', async () => {
    // Only the fallback poll can find it (no bus, no signal), so it runs often here.
    server = await startHubServer({ hub: { eventPollMs: 200 } });
    const { conversation, stream } = await server.visit();
    // Another instance's event log: same store, its own bus, so this process hears nothing.
    const elsewhere = createEventLog(server.store.db, { now: () => Date.now() }, createEventBus());
    await elsewhere.append(conversation, { type: 'turn.cancelled', turnId: 'trn_elsewhere' });
    const event = await stream.until('turn.cancelled', () => true, 5_000);
    expect(event).toMatchObject({ id: 1, turnId: 'trn_elsewhere' });
    stream.close();
  });

  it('never skips an event it was not told about for one it was: a gap in what it heard sends it to the log', async () => {
    // No log watch: only the stream's own reading can find the event another instance wrote.
    server = await startHubServer({ hub: { eventPollMs: 3_600_000 } });
    const { conversation, stream } = await server.visit();
    const elsewhere = createEventLog(server.store.db, { now: () => Date.now() }, createEventBus());
    await elsewhere.append(conversation, { type: 'turn.cancelled', turnId: 'trn_elsewhere' });
    // This process's own append: heard on the bus as event 2, with event 1 never announced.
    await server.app.diosc.hub!.services.events.append(conversation, {
      type: 'turn.cancelled',
      turnId: 'trn_here',
    });
    await stream.until('turn.cancelled', (event) => event.turnId === 'trn_here', 5_000);
    expect(stream.events.map((event) => [event.id, 'turnId' in event ? event.turnId : null])).toEqual([
      [1, 'trn_elsewhere'],
      [2, 'trn_here'],
    ]);
    stream.close();
  });

  it('reads a long log to its end in one go, past the size of one read', async () => {
    server = await startHubServer({ hub: { eventPollMs: 3_600_000 } });
    const { client, conversation } = await server.visit();
    const elsewhere = createEventLog(server.store.db, { now: () => Date.now() }, createEventBus());
    for (let index = 0; index < 501; index++)
      await elsewhere.append(conversation, { type: 'turn.cancelled', turnId: `trn_${index}` });
    const resumed = client.stream(conversation, 0);
    await resumed.ready;
    await resumed.until('turn.cancelled', (event) => event.turnId === 'trn_500', 10_000);
    expect(resumed.events.map((event) => event.id)).toEqual(
      Array.from({ length: 501 }, (_, index) => index + 1),
    );
    resumed.close();
  });

  it('refuses a malformed Last-Event-ID with a structured error', async () => {
    server = await startHubServer();
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const conversation = await client.conversation();
    const reply = await fetch(`${server.url}/api/hub/conversations/${conversation}/events`, {
      headers: { origin: server.pageOrigin, authorization: `Bearer ${client.token}`, 'last-event-id': 'abc' },
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ error: { code: 'invalid_input' } });
  });

  it('refuses a resume point past the end of the log, so no id a client can send skips the next turn', async () => {
    server = await startHubServer({ script: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'One' });
    await stream.until('turn.done');
    stream.close();
    const last = stream.events.at(-1)!.id;
    const eventsBefore = await server.store.db
      .selectFrom('hub_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const open = (resume: { header?: string; after?: string }) =>
      fetch(
        `${server!.url}/api/hub/conversations/${conversation}/events${resume.after !== undefined ? `?after=${resume.after}` : ''}`,
        {
          headers: {
            origin: server!.pageOrigin,
            authorization: `Bearer ${client.token}`,
            accept: 'text/event-stream',
            ...(resume.header !== undefined ? { 'last-event-id': resume.header } : {}),
          },
        },
      );
    for (const ahead of [last + 1, last + 2, 999_999_999_999]) {
      for (const resume of [{ header: String(ahead) }, { after: String(ahead) }]) {
        const reply = await open(resume);
        expect(reply.status).toBe(409);
        expect(reply.headers.get('content-type')).toContain('application/json');
        expect(await reply.json()).toEqual({
          error: {
            code: 'event_id_ahead',
            message: `Last-Event-ID ${ahead} is past the newest event (${last}) of this conversation; resume from ${last} or below.`,
            retryable: false,
            details: { lastEventId: last },
          },
        });
      }
    }
    for (const junk of ['-1', '1.5', '1e3', '0x1', 'abc', '9999999999999']) {
      const reply = await open({ header: junk });
      expect(reply.status).toBe(400);
      expect(await reply.json()).toMatchObject({ error: { code: 'invalid_input' } });
    }
    // Nothing was appended by the refusals.
    expect(
      await server.store.db
        .selectFrom('hub_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(eventsBefore);

    // Accepted resume points (the ends and the middle of 0 … last) deliver the next turn's events.
    const points = [...new Set([0, 1, Math.floor(last / 2), last])];
    const streams = points.map((from) => [from, client.stream(conversation, from)] as const);
    await Promise.all(streams.map(([, each]) => each.ready));
    await client.send(conversation, { text: 'Two' });
    for (const [from, each] of streams) {
      const done = await each.until('turn.done', (event) => event.id > last);
      const ids = each.events.map((event) => event.id);
      expect(ids).toEqual(Array.from({ length: done.id - from }, (_, index) => from + index + 1));
      each.close();
    }
  });

  it('reads back a conversation after a reload with its pending interrupt', async () => {
    server = await startHubServer({ script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }] });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Read it', registry: { tools: ['read_page'], intents: [] } });
    const { interrupt } = await stream.until('interrupt');
    const view = await client.view(conversation);
    expect(view.body.turn).toMatchObject({ status: 'waiting' });
    expect(view.body.pendingInterrupts).toEqual([interrupt]);
    expect(view.body.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'Read it'],
      ['assistant', ''],
    ]);
    expect(view.body.lastEventId).toBe(stream.events.at(-1)!.id);
    stream.close();
  });

  it('limits messages per visitor per minute with rate_limited', async () => {
    server = await startHubServer({
      script: Array.from({ length: 5 }, () => ({ text: 'ok' })),
      assistant: { limits: { messagesPerMinute: 2 } },
    });
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++) {
      const conversation = await client.conversation();
      const reply = await client.send(conversation, { text: `message ${index}` });
      statuses.push(reply.status);
      if (reply.status === 429)
        expect(reply.body).toMatchObject({ error: { code: 'rate_limited', retryable: true } });
    }
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('counts one message budget across both wires: the kit’s messages and AG-UI runs', async () => {
    server = await startHubServer({
      script: Array.from({ length: 5 }, () => ({ text: 'ok' })),
      assistant: { limits: { messagesPerMinute: 2 } },
    });
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const agUiRun = async (text: string) => {
      const threadId = await client.conversation();
      const response = await fetch(`${server!.url}${HUB_API_PREFIX}${hubPath('agUiRun')}`, {
        method: 'POST',
        headers: {
          origin: server!.pageOrigin,
          'content-type': 'application/json',
          authorization: `Bearer ${client.token}`,
        },
        body: JSON.stringify({
          threadId,
          runId: randomUUID(),
          state: {},
          forwardedProps: {},
          context: [],
          tools: [],
          messages: [{ id: randomUUID(), role: 'user', content: text }],
        }),
      });
      const body = await response.text();
      return { status: response.status, body };
    };
    const statuses = [(await client.send(await client.conversation(), { text: 'by the kit' })).status];
    const run = await agUiRun('by AG-UI');
    statuses.push(run.status);
    // Both turns run to their end first, so what the refusals leave is all there is to compare.
    await vi.waitFor(
      async () => {
        const open = await server!.store.db
          .selectFrom('hub_turns')
          .select('id')
          .where('status', 'in', ['running', 'waiting'])
          .execute();
        expect(open).toEqual([]);
      },
      { timeout: 60_000, interval: 50 },
    );
    const before = await rowCounts(server.store);
    const third = await client.send(await client.conversation(), { text: 'by the kit again' });
    const fourth = await agUiRun('by AG-UI again');
    statuses.push(third.status, fourth.status);
    expect(statuses).toEqual([202, 200, 429, 429]);
    expect(third.body).toMatchObject({ error: { code: 'rate_limited', retryable: true } });
    expect(JSON.parse(fourth.body)).toMatchObject({ error: { code: 'rate_limited', retryable: true } });
    // Refused before anything was written but the conversations the refused attempts asked for.
    const after = await rowCounts(server.store);
    expect({ ...after, hub_conversations: 0 }).toEqual({ ...before, hub_conversations: 0 });
  });
});
