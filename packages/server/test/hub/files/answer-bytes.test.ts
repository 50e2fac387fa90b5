import { randomBytes } from 'node:crypto';
import type { FileDescriptor } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { uploadFile } from './file-client.js';

/*
 * Issue 27 item 15a, the hub's side: a page (no kit in between — the hub's own HTTP client) answers
 * an interrupt with file bytes or a descriptor the hub never issued. The hub refuses it itself;
 * nothing of it reaches the model, the events or the transcript.
 */

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const EXPORT_TOOL = {
  name: 'export_report',
  description: 'Exports the report on the page as CSV.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

async function waitingForExport() {
  server = await startHubServer({
    assistant: { browserTools: [EXPORT_TOOL] },
    script: [{ toolCalls: [{ toolName: 'export_report', input: {} }] }, { text: 'Your report is ready.' }],
  });
  const { client, conversation, stream } = await server.visit();
  await client.send(conversation, {
    text: 'Export the report',
    registry: { tools: ['export_report'], intents: [] },
  });
  const { interrupt } = await stream.until('interrupt');
  return { client, conversation, stream, interrupt };
}

const code = (body: unknown) => (body as { error?: { code?: string; message?: string } }).error;

describeOnDialects('an interrupt answer that would carry file bytes past the upload', () => {
  it('is refused with invalid_input and changes nothing; the real upload then reaches the model as the stored descriptor only', async () => {
    const { client, conversation, stream, interrupt } = await waitingForExport();
    const secret = randomBytes(600);
    const b64 = secret.toString('base64');
    const dataUrl = `data:text/csv;base64,${b64}`;
    const uploaded = await uploadFile(client, conversation, {
      bytes: Buffer.from('id,total\n1,10\n'),
      filename: 'report.csv',
      type: 'text/csv',
      interruptId: interrupt.id,
    });
    expect(uploaded.status).toBe(201);
    const stored = uploaded.body as FileDescriptor;
    const forged = {
      fileId: 'f_forged',
      filename: 'report.csv',
      format: 'csv',
      downloadUrl: 'https://attacker.example/x',
      sizeBytes: 1,
    };
    const before = await rowCounts(server!.store);
    const attempts: unknown[] = [
      // The kit's emission passed through as it was: bytes in the result's `file`.
      { result: { exported: true, file: { content: dataUrl, filename: 'report.csv' } } },
      { result: { exported: true, file: { content: dataUrl } } },
      // A descriptor the hub never issued, in the result, with or beside a real one.
      { result: { exported: true, file: forged } },
      {
        result: { exported: true, file: { ...stored, downloadUrl: 'https://attacker.example/x' } },
        file: stored,
      },
      { result: { exported: true, file: { content: dataUrl, filename: 'r.csv' } }, file: stored },
      // Bytes anywhere else in the result, or in an error.
      { result: { exported: true, preview: [{ image: dataUrl }] } },
      { result: dataUrl },
      { error: `could not export ${dataUrl}` },
    ];
    for (const attempt of attempts) {
      const answered = await client.answer(interrupt.id, attempt as never);
      expect(answered.status, JSON.stringify(attempt).slice(0, 80)).toBe(400);
      expect(code(answered.body)?.code).toBe('invalid_input');
      expect(code(answered.body)?.message).toMatch(/data: URL|not a file the hub issued/);
      expect(JSON.stringify(answered.body)).not.toContain(b64.slice(0, 40));
    }
    expect(await rowCounts(server!.store)).toEqual(before);
    const call = await server!.store.db
      .selectFrom('hub_tool_calls')
      .select(['status', 'answer_json'])
      .where('id', '=', interrupt.id)
      .executeTakeFirstOrThrow();
    expect(call.status).toBe('interrupt');
    expect(stream.ofType('interrupt.resolved')).toHaveLength(0);
    expect(server!.model.calls).toHaveLength(1);

    // The kit's way: the descriptor in both places; the hub's stored copy is what the model reads.
    const accepted = await client.answer(interrupt.id, {
      result: { exported: true, file: stored },
      file: stored,
    });
    expect(accepted.body).toEqual({ status: 'accepted' });
    await stream.until('turn.done');
    const toolMessage = JSON.stringify(
      server!.model.calls[1]!.prompt.find((message) => message.role === 'tool'),
    );
    expect(toolMessage).toContain(JSON.stringify({ exported: true, file: stored }).slice(1, -1));
    const prompts = JSON.stringify(server!.model.calls.map((each) => each.prompt));
    const events = JSON.stringify(
      await server!.store.db.selectFrom('hub_events').select('data_json').execute(),
    );
    const transcript = JSON.stringify(
      await server!.store.db.selectFrom('hub_messages').selectAll().execute(),
    );
    const calls = JSON.stringify(await server!.store.db.selectFrom('hub_tool_calls').selectAll().execute());
    for (const where of [prompts, events, transcript, calls]) {
      expect(where).not.toContain(b64.slice(0, 40));
      expect(where).not.toContain('data:text/csv');
      expect(where).not.toContain('f_forged');
      expect(where).not.toContain('attacker.example');
    }
  });
});
