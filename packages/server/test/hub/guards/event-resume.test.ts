import type { HubEventBody } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cancelled = (turnId: string): HubEventBody => ({ type: 'turn.cancelled', turnId });

/** Opens the stream with the given headers and query; reads `count` events' ids, then closes. */
async function streamIds(
  server: HubTestServer,
  token: string,
  conversation: string,
  options: { lastEventId?: string; after?: string; count: number },
): Promise<{ status: number; ids: number[] }> {
  const query = options.after === undefined ? '' : `?after=${encodeURIComponent(options.after)}`;
  const abort = new AbortController();
  const reply = await fetch(`${server.url}/api/hub/conversations/${conversation}/events${query}`, {
    headers: {
      origin: server.pageOrigin,
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
      ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
    },
    signal: abort.signal,
  });
  const ids: number[] = [];
  if (reply.status !== 200 || !reply.body) return { status: reply.status, ids };
  const reader = reply.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (ids.length < options.count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    ids.length = 0;
    for (const match of text.matchAll(/^id: ?(\d+)$/gm)) ids.push(Number(match[1]));
  }
  abort.abort();
  return { status: reply.status, ids };
}

/**
 * `Last-Event-ID` (and `?after=`) from the attacker's side: anything but 1 to 12 digits is refused
 * with `invalid_input` before the stream opens and changes nothing; a valid one resumes exactly
 * after that id, the header winning over the query.
 */
describeOnDialects('resuming the event stream', () => {
  it('refuses a Last-Event-ID or ?after= that is not 1 to 12 digits, changing nothing', async () => {
    server = await startHubServer();
    const { client, conversation, stream } = await server.visit();
    stream.close();
    const before = await rowCounts(server.store);
    const bad = ['abc', '1abc', 'abc1', '-1', '1.5', '1e3', '0x10', '7 8', '1234567890123'];
    for (const value of bad) {
      for (const where of ['lastEventId', 'after'] as const) {
        const reply = await fetch(
          `${server.url}/api/hub/conversations/${conversation}/events${where === 'after' ? `?after=${encodeURIComponent(value)}` : ''}`,
          {
            headers: {
              origin: server.pageOrigin,
              authorization: `Bearer ${client.token}`,
              ...(where === 'lastEventId' ? { 'last-event-id': value } : {}),
            },
          },
        );
        expect([reply.status, where, value]).toEqual([400, where, value]);
        expect(reply.headers.get('content-type')).toContain('application/json');
        expect(await reply.json()).toEqual({
          error: { code: 'invalid_input', message: 'Last-Event-ID must be an event id.', retryable: false },
        });
      }
    }
    expect(await rowCounts(server.store)).toEqual(before);
  });

  it('resumes exactly after the id given, by header or by query, the header winning', async () => {
    server = await startHubServer();
    const { client, conversation, stream } = await server.visit();
    stream.close();
    const events = server.app.diosc.hub!.services.events;
    for (let index = 1; index <= 5; index++) await events.append(conversation, cancelled(`trn_${index}`));
    const token = client.token!;

    expect(await streamIds(server, token, conversation, { count: 5 })).toEqual({
      status: 200,
      ids: [1, 2, 3, 4, 5],
    });
    expect(await streamIds(server, token, conversation, { lastEventId: '2', count: 3 })).toEqual({
      status: 200,
      ids: [3, 4, 5],
    });
    expect(await streamIds(server, token, conversation, { after: '3', count: 2 })).toEqual({
      status: 200,
      ids: [4, 5],
    });
    // The header is what a reconnecting EventSource sends; a stale query does not override it.
    expect(
      await streamIds(server, token, conversation, { lastEventId: '4', after: 'not-an-id', count: 1 }),
    ).toEqual({ status: 200, ids: [5] });
    expect(await streamIds(server, token, conversation, { lastEventId: '1', after: '3', count: 4 })).toEqual({
      status: 200,
      ids: [2, 3, 4, 5],
    });
    // The newest id opens a stream with nothing after it yet; twelve digits past the end is still an
    // id, and is refused as ahead of the log (never a stream that would skip the next turn).
    expect(await streamIds(server, token, conversation, { lastEventId: '5', count: 0 })).toEqual({
      status: 200,
      ids: [],
    });
    const far = await streamIds(server, token, conversation, { lastEventId: '999999999999', count: 0 });
    expect(far).toEqual({ status: 409, ids: [] });
  });

  it('sends each event once and in order while live, including ones appended in a burst', async () => {
    server = await startHubServer();
    const { conversation, stream } = await server.visit();
    const events = server.app.diosc.hub!.services.events;
    await events.append(conversation, cancelled('trn_first'));
    await stream.until('turn.cancelled', (event) => event.turnId === 'trn_first');
    await Promise.all(
      Array.from({ length: 6 }, (_, index) => events.append(conversation, cancelled(`trn_burst_${index}`))),
    );
    await stream.until('turn.cancelled', () => stream.events.length >= 7);
    await events.append(conversation, cancelled('trn_last'));
    await stream.until('turn.cancelled', (event) => event.turnId === 'trn_last');
    expect(stream.events.map((event) => event.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    stream.close();
  });
});
