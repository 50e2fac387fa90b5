import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';

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

const registry = {
  tools: ['navigate', 'read_page', 'highlight_row'],
  intents: [
    {
      name: 'apply_changes',
      description: 'Apply a diff to the open diagram.',
      schema: {
        type: 'object',
        required: ['ops'],
        properties: { ops: { type: 'array', items: { type: 'object' } } },
      },
    },
  ],
};

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describeOnDialects('a turn with browser tools', () => {
  it('runs a server tool, interrupts for a raw tool and an intent, continues on result-only answers, and finishes', async () => {
    server = await startHubServer({
      script: [
        { toolCalls: [{ toolName: 'items_list', input: { collection: 'notes' } }] },
        { text: 'Let me highlight it.', toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
        { toolCalls: [{ toolName: 'browser_apply_changes', input: { ops: [{ op: 'add' }] } }] },
        { text: 'Done: row 42 is highlighted and the change is applied.' },
      ],
      assistant: {
        browserTools: [HIGHLIGHT],
        serverTools: { account: { grant: [{ collection: 'notes', functions: ['items_list'] }] } },
      },
    });
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, {
      text: 'Highlight product 42',
      snapshot: { url: `${server.pageOrigin}/products`, title: 'Products', content: 'Tea 3 €' },
      registry,
    });
    expect(sent.status).toBe(202);

    const first = await stream.until('interrupt');
    expect(first.interrupt).toMatchObject({
      name: 'browser:highlight_row',
      kind: 'tool',
      args: { id: '42' },
    });
    const before = client.sent.length;
    expect((await client.answer(first.interrupt.id, { result: { highlighted: '42' } })).body).toEqual({
      status: 'accepted',
    });
    // The continuation is the result only: one small body, no history.
    expect(client.sent.slice(before).map((entry) => entry.bytes)).toEqual([
      JSON.stringify({ result: { highlighted: '42' } }).length,
    ]);

    const second = await stream.until('interrupt', (event) => event.interrupt.id !== first.interrupt.id);
    expect(second.interrupt).toMatchObject({
      name: 'browser:browser_apply_changes',
      kind: 'intent',
      tool: 'apply_changes',
    });
    await client.answer(second.interrupt.id, { result: { success: true, data: { applied: 1 } } });

    await stream.until('turn.done');
    const message = await stream.until('message');
    expect(message.message.text).toContain('Done: row 42 is highlighted');
    expect(message.message.tools.map((tool) => [tool.tool, tool.where, tool.ok])).toEqual([
      ['items_list', 'server', true],
      ['highlight_row', 'browser', true],
      ['browser_apply_changes', 'browser', true],
    ]);
    // The model saw each result as the tool's output.
    const third = server.model.calls[3]!;
    const toolMessages = third.prompt.filter((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessages)).toContain('"highlighted":"42"');
    expect(JSON.stringify(toolMessages)).toContain('"applied":1');
    // The server tool ran on the server: its result (the notes page) is in the history, no interrupt.
    expect(JSON.stringify(toolMessages)).toContain('"items":[');
    expect(stream.ofType('interrupt')).toHaveLength(2);
    stream.close();
  });
});
