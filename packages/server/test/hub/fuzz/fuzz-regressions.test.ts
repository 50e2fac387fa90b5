import { PAGE_LIMITS } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { VALID_INTENT, VALID_SNAPSHOT } from './hub-shapes.js';

/** What the hub fuzz found, each kept as a plain example (the fuzz may not draw it again). */
let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function visit() {
  server = await startHubServer({ assistant: { files: { enabled: true } } });
  return server.visit();
}

async function refusedWithNothingStored(
  send: () => Promise<{ status: number; body: unknown }>,
  code: string,
) {
  const before = await rowCounts(server!.store);
  const reply = await send();
  expect(reply.body).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(await rowCounts(server!.store)).toEqual(before);
  return reply;
}

describeOnDialects('hub fuzz regressions', () => {
  it('answers a multipart body it cannot frame at all with invalid_input (was a 500)', async () => {
    const { client, conversation } = await visit();
    for (const body of [Buffer.from([0xff]), Buffer.from('--xyz\r\n'), Buffer.from('no boundary here')]) {
      const reply = await refusedWithNothingStored(async () => {
        const response = await fetch(`${server!.url}/api/hub/conversations/${conversation}/files`, {
          method: 'POST',
          headers: {
            origin: client.origin,
            authorization: `Bearer ${client.token}`,
            'content-type': 'multipart/form-data; boundary=xyz',
          },
          body: new Uint8Array(body),
        });
        return { status: response.status, body: await response.json() };
      }, 'invalid_input');
      expect(reply.status).toBe(400);
    }
  });

  it('refuses a conversation id with a NUL in it as not_found on every route (PostgreSQL answered 500)', async () => {
    const { client } = await visit();
    for (const [method, path] of [
      ['GET', '/conversations/a%00b'],
      ['GET', '/conversations/a%00b/events'],
      ['POST', '/conversations/a%00b/messages'],
    ] as const) {
      const reply = await refusedWithNothingStored(
        () => client.request(method, path, method === 'POST' ? { text: 'hi' } : undefined),
        'not_found',
      );
      expect(reply.status).toBe(404);
    }
  });

  it(`refuses snapshot data over ${PAGE_LIMITS.snapshotDataMaxBytes} bytes of JSON (was stored)`, async () => {
    const { client, conversation } = await visit();
    const data = { blob: 'd'.repeat(PAGE_LIMITS.snapshotDataMaxBytes) };
    const reply = await refusedWithNothingStored(
      () => client.send(conversation, { text: 'hi', snapshot: { ...VALID_SNAPSHOT, data } }),
      'invalid_input',
    );
    expect((reply.body as { error: { message: string } }).error.message).toContain('body.snapshot.data');
    // Just under the bound is a snapshot like any other.
    const fits = { blob: 'd'.repeat(PAGE_LIMITS.snapshotDataMaxBytes - 20) };
    expect(
      (await client.send(conversation, { text: 'hi', snapshot: { ...VALID_SNAPSHOT, data: fits } })).status,
    ).toBe(202);
  });

  it('refuses an intent whose schema does not compile or is over the bound (was stored, then silently not offered)', async () => {
    const { client, conversation } = await visit();
    for (const schema of [
      { type: 'nope' },
      { pattern: '(' },
      { $ref: '#/definitions/missing' },
      { type: 'object', description: 's'.repeat(PAGE_LIMITS.schemaMaxBytes) },
    ]) {
      await refusedWithNothingStored(
        () =>
          client.send(conversation, {
            text: 'hi',
            registry: { tools: [], intents: [{ ...VALID_INTENT, schema }] },
          }),
        'invalid_input',
      );
    }
    // The same rule for a registry that comes with an interrupt's answer (a navigate).
    expect(
      (
        await client.answer('tc_00000000-0000-0000-0000-000000000000', {
          result: {},
          registry: { tools: [], intents: [{ ...VALID_INTENT, schema: { type: 'nope' } }] },
        })
      ).body,
    ).toMatchObject({ error: { code: 'invalid_input' } });
  });

  it('stores a message whose text holds a NUL (the title is text on PostgreSQL too)', async () => {
    const { client, conversation } = await visit();
    const sent = await client.send(conversation, { text: 'a\u0000b' });
    expect(sent.status).toBe(202);
    const view = await client.view(conversation);
    expect(view.status).toBe(200);
    expect(view.body.messages[0]).toMatchObject({ role: 'user', text: 'a\u0000b' });
    // The title is a label: the NUL became a space.
    const list = await client.request<{ conversations: { id: string; title: string }[] }>(
      'GET',
      '/conversations',
    );
    expect(list.body.conversations.find((row) => row.id === conversation)?.title).toBe('a b');
  });
});
