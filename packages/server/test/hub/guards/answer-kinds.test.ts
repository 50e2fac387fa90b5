import { afterEach, expect, it } from 'vitest';
import { uploadFile } from '../files/file-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ErrorBody = { error?: { code?: string; message?: string } };
const errorOf = (body: unknown) => (body as ErrorBody).error;

const EXPORT_TOOL = {
  name: 'export_chart',
  description: 'Exports the chart on the page.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

async function waitingForExport() {
  server = await startHubServer({
    assistant: { browserTools: [EXPORT_TOOL] },
    script: [{ toolCalls: [{ toolName: 'export_chart', input: {} }] }, { text: 'Done.' }],
  });
  const { client, conversation, stream } = await server.visit();
  await client.send(conversation, { text: 'Export it', registry: { tools: ['export_chart'], intents: [] } });
  const { interrupt } = await stream.until('interrupt');
  return { client, conversation, stream, interrupt };
}

/** What the model read back for the tool call of its first step. */
function toolResult(): string {
  return JSON.stringify(server!.model.calls[1]!.prompt.find((message) => message.role === 'tool'));
}

async function callStatus(id: string) {
  const row = await server!.store.db
    .selectFrom('hub_tool_calls')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

/**
 * An answer goes only to the kind of request it is for: a page's answer never decides an approval
 * request, and an approval decision never answers a page's interrupt. Each is `not_found` (as an
 * unknown id) and changes nothing.
 */
describeOnDialects('answers reach only their own kind of request', () => {
  it("refuses a page's answer to an approval request, changing nothing", async () => {
    server = await startHubServer({
      script: [
        {
          toolCalls: [
            {
              toolName: 'item_write',
              input: {
                collection: 'notes',
                item: 'plan',
                requestId: 'req-plan-1',
                ifNoneMatch: '*',
                content: { title: 'Plan', body: 'Ship it.', contentType: 'text/plain' },
              },
            },
          ],
        },
        { text: 'Finished.' },
      ],
      assistant: {
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
          consensus: { item_write: 'high' },
        },
      },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Write the plan' });
    const { request } = await stream.until('consensus.requested');
    const before = await rowCounts(server.store);
    const reply = await client.answer(request.id, { result: { approved: true } });
    expect([reply.status, errorOf(reply.body)?.code, errorOf(reply.body)?.message]).toEqual([
      404,
      'not_found',
      'There is no such request.',
    ]);
    expect(await rowCounts(server.store)).toEqual(before);
    expect(await callStatus(request.id)).toBe('consensus');
    stream.close();
  });

  it("refuses an approval decision on a page's interrupt, changing nothing", async () => {
    const { client, stream, interrupt } = await waitingForExport();
    const before = await rowCounts(server!.store);
    const reply = await client.decide(interrupt.id, { decision: 'approve', argsDigest: '0'.repeat(64) });
    expect([reply.status, errorOf(reply.body)?.code, errorOf(reply.body)?.message]).toEqual([
      404,
      'not_found',
      'There is no such request.',
    ]);
    expect(await rowCounts(server!.store)).toEqual(before);
    expect(await callStatus(interrupt.id)).toBe('interrupt');
    stream.close();
  });
});

describeOnDialects("what the model reads of a page's answer", () => {
  it("reads the page's error as error text, and the tool as failed", async () => {
    const { client, stream, interrupt } = await waitingForExport();
    const reply = await client.answer(interrupt.id, { error: 'The chart is empty.' });
    expect(reply.body).toEqual({ status: 'accepted' });
    await stream.until('turn.done');
    const finished = stream.ofType('tool.finished').find((event) => event.toolCallId === interrupt.id);
    expect(finished).toMatchObject({ ok: false, summary: 'error', tool: 'export_chart' });
    expect(toolResult()).toContain('"type":"error-text","value":"The chart is empty."');
    expect(stream.ofType('interrupt.resolved')).toEqual([
      expect.objectContaining({ interruptId: interrupt.id, outcome: 'answered' }),
    ]);
  });

  it('spreads an object result beside the stored file, and keeps any other result under `result`', async () => {
    for (const result of [{ exported: true }, ['a', 'b'], 'exported', 7]) {
      const { client, conversation, stream, interrupt } = await waitingForExport();
      const uploaded = await uploadFile(client, conversation, {
        bytes: 'chart data',
        filename: 'chart.txt',
        type: 'text/plain',
        interruptId: interrupt.id,
      });
      expect(uploaded.status).toBe(201);
      const file = uploaded.body;
      expect((await client.answer(interrupt.id, { result, file })).body).toEqual({ status: 'accepted' });
      await stream.until('turn.done');
      expect(toolResult(), JSON.stringify(result)).toContain(
        `"type":"json","value":${JSON.stringify(typeof result === 'object' && !Array.isArray(result) ? { ...result, file } : { result, file })}`,
      );
      const finished = stream.ofType('tool.finished').find((event) => event.toolCallId === interrupt.id);
      expect(finished).toEqual(expect.objectContaining({ ok: true }));
      expect(finished).not.toHaveProperty('summary');
      stream.close();
      await server!.close();
      server = undefined;
    }
  });
});
