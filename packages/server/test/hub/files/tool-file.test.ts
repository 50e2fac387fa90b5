import { randomBytes } from 'node:crypto';
import type { FileDescriptor } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { downloadFile, PNG_1PX, uploadFile } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const EXPORT_TOOL = {
  name: 'export_chart',
  description: 'Exports the chart on the page as a PNG.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

/**
 * A valid PNG carrying 4 KB of random bytes in a private ancillary chunk (`raNd`, which decoders
 * skip): a file whose every byte, and its base64, is recognisable wherever it might leak.
 */
function uniquePng(): Buffer {
  const data = randomBytes(4_000);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const chunk = Buffer.concat([length, Buffer.from('raNd'), data, Buffer.alloc(4)]);
  return Buffer.concat([PNG_1PX.subarray(0, 33), chunk, PNG_1PX.subarray(33)]);
}

async function waitingForExport() {
  server = await startHubServer({
    assistant: { browserTools: [EXPORT_TOOL] },
    script: [{ toolCalls: [{ toolName: 'export_chart', input: {} }] }, { text: 'Your chart is ready.' }],
  });
  const { client, conversation, stream } = await server.visit();
  await client.send(conversation, {
    text: 'Export the chart',
    registry: { tools: ['export_chart'], intents: [] },
  });
  const { interrupt } = await stream.until('interrupt');
  return { client, conversation, stream, interrupt };
}

describeOnDialects('a file from a browser tool', () => {
  it('reaches the model as the stored descriptor only: no byte and no base64 in any prompt or event', async () => {
    const { client, conversation, stream, interrupt } = await waitingForExport();
    const bytes = uniquePng();
    const uploaded = await uploadFile(client, conversation, {
      bytes,
      filename: 'chart.png',
      type: 'image/png',
      interruptId: interrupt.id,
    });
    expect(uploaded.status).toBe(201);
    const file = uploaded.body;
    // The page's copy of the descriptor is not trusted: a forged name and size are replaced.
    const forged: FileDescriptor = { ...file, filename: 'evil\u202Egnp.exe', sizeBytes: 1 };
    const answered = await client.answer(interrupt.id, { result: { exported: true }, file: forged });
    expect(answered.body).toEqual({ status: 'accepted' });
    await stream.until('turn.done');

    const ready = stream.ofType('file.ready');
    expect(ready.map((event) => event.file)).toEqual([file]);
    const toolResult = JSON.stringify(
      server!.model.calls[1]!.prompt.find((message) => message.role === 'tool'),
    );
    expect(toolResult).toContain(JSON.stringify({ exported: true, file }).slice(1, -1));
    expect(toolResult).not.toContain('evil');

    const random = bytes.subarray(41, 4_041);
    const needles = [
      random.subarray(0, 32).toString('hex'),
      bytes.toString('base64').slice(60, 120),
      random.toString('base64').slice(0, 60),
      random.toString('base64url').slice(0, 60),
      random.subarray(0, 32).toString('latin1'),
    ];
    const prompts = JSON.stringify(server!.model.calls.map((call) => call.prompt));
    const events = await server!.store.db.selectFrom('hub_events').select('data_json').execute();
    const messages = await server!.store.db.selectFrom('hub_messages').selectAll().execute();
    for (const needle of needles) {
      expect(prompts).not.toContain(needle);
      for (const event of events) expect(event.data_json).not.toContain(needle);
      for (const message of messages) expect(JSON.stringify(message)).not.toContain(needle);
    }

    // The chip is part of the saved assistant message, so a reload shows it.
    const view = await client.view(conversation);
    const reply = view.body.messages.find((message) => message.role === 'assistant');
    expect(reply?.files).toEqual([file]);
    expect((await downloadFile(client, file.downloadUrl)).body.equals(bytes)).toBe(true);

    // A tool's file belongs to its interrupt: it cannot be re-sent as the visitor's attachment.
    const before = await rowCounts(server!.store);
    const reattached = await client.send(conversation, { text: 'again', attachments: [file.fileId] });
    expect(reattached.status).toBe(400);
    expect(reattached.body).toMatchObject({ error: { code: 'invalid_input' } });
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('refuses an answer naming a file uploaded without this interrupt, leaving the interrupt pending', async () => {
    const { client, conversation, interrupt } = await waitingForExport();
    const { body: picked } = await uploadFile(client, conversation, {
      bytes: uniquePng(),
      filename: 'p.png',
      type: 'image/png',
    });
    const before = await rowCounts(server!.store);
    const answer = await client.answer(interrupt.id, { result: {}, file: picked });
    expect([answer.status, (answer.body as { error?: unknown }).error]).toEqual([
      400,
      expect.objectContaining({
        code: 'invalid_input',
        message: 'The file named in the answer was not uploaded for this interrupt.',
      }),
    ]);
    expect(await rowCounts(server!.store)).toEqual(before);
    const call = await server!.store.db
      .selectFrom('hub_tool_calls')
      .select('status')
      .where('id', '=', interrupt.id)
      .executeTakeFirstOrThrow();
    expect(call.status).toBe('interrupt');
  });

  it('refuses an upload for an interrupt that was already answered, storing nothing', async () => {
    const { client, conversation, stream, interrupt } = await waitingForExport();
    await client.answer(interrupt.id, { result: { exported: false } });
    await stream.until('turn.done');
    const before = await rowCounts(server!.store);
    const late = await uploadFile(client, conversation, {
      bytes: uniquePng(),
      filename: 'late.png',
      type: 'image/png',
      interruptId: interrupt.id,
    });
    expect([late.status, late.body.error?.code]).toEqual([409, 'interrupt_not_pending']);
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('replaces the page’s copy of the descriptor inside the result too: the model reads the stored one', async () => {
    const { client, conversation, stream, interrupt } = await waitingForExport();
    const { body: file } = await uploadFile(client, conversation, {
      bytes: uniquePng(),
      filename: 'chart.png',
      type: 'image/png',
      interruptId: interrupt.id,
    });
    const forged: FileDescriptor = { ...file, filename: 'invoice.exe', sizeBytes: 1 };
    const answered = await client.answer(interrupt.id, {
      result: { exported: true, file: forged },
      file: forged,
    });
    expect(answered.body).toEqual({ status: 'accepted' });
    await stream.until('turn.done');
    const tool = server!.model.calls[1]!.prompt.find((message) => message.role === 'tool')!;
    const output = (tool.content[0] as { output: { value: unknown } }).output.value;
    expect(output).toEqual({ exported: true, file });
    expect(stream.ofType('file.ready').map((event) => event.file)).toEqual([file]);
    // Nor is the forged copy kept: the stored answer holds the hub's descriptor in both places.
    const stored = await server!.store.db
      .selectFrom('hub_tool_calls')
      .select('answer_json')
      .where('id', '=', interrupt.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.answer_json!)).toEqual({ result: { exported: true, file }, file });
  });

  it('a repeat that differs and would carry bytes is a conflict, not a new answer to check', async () => {
    const { client, stream, interrupt } = await waitingForExport();
    await client.answer(interrupt.id, { result: { exported: false } });
    await stream.until('turn.done');
    const before = await rowCounts(server!.store);
    const late = await client.answer(interrupt.id, {
      result: { image: `data:image/png;base64,${'A'.repeat(64)}` },
    });
    expect([late.status, (late.body as { error?: { code: string } }).error?.code]).toEqual([
      409,
      'result_conflict',
    ]);
    expect(await rowCounts(server!.store)).toEqual(before);
  });
});
