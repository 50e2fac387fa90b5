import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { ScriptedStep } from '../../../src/hub/model/scripted/scripted-model.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { downloadFile, fileRows } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONTENTS = {
  csv: { content: 'name,price\nGreen tea,4\n', type: 'text/csv; charset=utf-8' },
  md: { content: '# Report\n\n- one\n', type: 'text/markdown; charset=utf-8' },
  txt: { content: 'plain words, ünïcode ✓\n', type: 'text/plain; charset=utf-8' },
  json: { content: '{"items":[1,2,3]}', type: 'application/json; charset=utf-8' },
  html: {
    content: '<!doctype html><p onclick="alert(1)">Hi</p><script>alert(2)</script>',
    type: 'text/html; charset=utf-8',
  },
  svg: {
    content: '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
    type: 'image/svg+xml; charset=utf-8',
  },
} as const;

function toolResults(prompt: LanguageModelV3Prompt): unknown[] {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}

async function turn(
  steps: ScriptedStep[],
  generateFile: Record<string, unknown>,
  files: Record<string, unknown> = {},
) {
  server = await startHubServer({
    script: steps,
    assistant: { serverTools: { generateFile: { enabled: true, ...generateFile } }, files },
  });
  const { client, conversation, stream } = await server.visit();
  await client.send(conversation, { text: 'Make the files' });
  await stream.until('turn.done');
  return { client, conversation, stream };
}

describeOnDialects('generate_file', () => {
  it('stores every format and returns the descriptor; chips, file.ready and downloads follow', async () => {
    const calls = Object.entries(CONTENTS).map(([format, { content }]) => ({
      toolName: 'generate_file',
      input: { filename: `../out/report.${format === 'md' ? 'markdown' : 'data'}`, format, content },
    }));
    const { client, conversation, stream } = await turn([{ toolCalls: calls }, { text: 'Done.' }], {});
    expect(server!.model.calls[0]!.tools).toContain('generate_file');
    const results = toolResults(server!.model.calls[1]!.prompt) as {
      type: string;
      value: Record<string, unknown>;
    }[];
    expect(results).toHaveLength(6);
    const ready = stream.ofType('file.ready').map((event) => event.file);
    expect(ready).toHaveLength(6);
    for (const [index, [format, { content, type }]] of Object.entries(CONTENTS).entries()) {
      const result = results[index]!;
      expect(result.type).toBe('json');
      // Exactly the descriptor: no content echoed back, no credential.
      expect(Object.keys(result.value).sort()).toEqual([
        'downloadUrl',
        'fileId',
        'filename',
        'format',
        'sizeBytes',
      ]);
      expect(result.value).toMatchObject({ format, sizeBytes: Buffer.byteLength(content) });
      // The path is gone and the extension names the format.
      const extension = format === 'md' ? 'markdown' : format;
      expect(result.value.filename).toBe(format === 'md' ? 'report.markdown' : `report.data.${extension}`);
      expect(ready[index]).toEqual(result.value);
      const got = await downloadFile(client, String(result.value.downloadUrl));
      expect(got.body.toString()).toBe(content);
      expect(got.headers.get('content-type')).toBe(type);
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(got.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
    const view = await client.view(conversation);
    expect(view.body.messages.find((message) => message.role === 'assistant')?.files).toEqual(ready);
    const { files } = await fileRows(server!.store);
    expect(files.map((row) => [row.source, row.status])).toEqual(Array(6).fill(['generated', 'complete']));
  });

  it('is not offered unless the assistant enables it', async () => {
    server = await startHubServer({ script: [{ text: 'No files here.' }] });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'hi' });
    await stream.until('turn.done');
    expect(server.model.calls[0]!.tools).not.toContain('generate_file');
  });

  it('answers each delivery failure as { success: false, error } and stores nothing', async () => {
    const { stream } = await turn(
      [
        {
          toolCalls: [
            {
              toolName: 'generate_file',
              input: { filename: 'big.txt', format: 'txt', content: 'x'.repeat(101) },
            },
            { toolName: 'generate_file', input: { filename: 'bad.json', format: 'json', content: '{nope' } },
            {
              toolName: 'generate_file',
              input: { filename: 'bad.svg', format: 'svg', content: '<html></html>' },
            },
            { toolName: 'generate_file', input: { filename: 'empty.txt', format: 'txt', content: '' } },
            {
              toolName: 'generate_file',
              input: { filename: 'quota.txt', format: 'txt', content: 'y'.repeat(60) },
            },
          ],
        },
        { text: 'Some failed.' },
      ],
      { maxBytes: 100 },
      { maxConversationBytes: 50 },
    );
    const results = toolResults(server!.model.calls[1]!.prompt) as {
      type: string;
      value: { success: boolean; error: string };
    }[];
    expect(results.map((result) => [result.type, result.value.success])).toEqual(
      Array(5).fill(['json', false]),
    );
    expect(results[0]!.value.error).toContain('100-byte');
    expect(results[1]!.value.error).toContain('not valid JSON');
    expect(results[2]!.value.error).toContain('not an SVG');
    expect(results[3]!.value.error).toContain('empty');
    expect(results[4]!.value.error).toContain('storage');
    expect(stream.ofType('turn.failed')).toEqual([]);
    expect(stream.ofType('file.ready')).toEqual([]);
    expect(await fileRows(server!.store)).toEqual({ files: [], chunks: [] });
  });

  it('answers a storage failure in the middle of a write as { success: false } and leaves no row', async () => {
    server = await startHubServer({
      script: [
        {
          toolCalls: [
            { toolName: 'generate_file', input: { filename: 'a.txt', format: 'txt', content: 'abc' } },
          ],
        },
        { text: 'It failed.' },
      ],
      assistant: { serverTools: { generateFile: { enabled: true } } },
    });
    // The metadata row can be written, its first chunk cannot.
    await sql`drop table hub_file_chunks`.execute(server.store.db);
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Write it' });
    await stream.until('turn.done');
    const [result] = toolResults(server.model.calls[1]!.prompt);
    expect(result).toEqual({
      type: 'json',
      value: { success: false, error: 'The file could not be stored; try again.' },
    });
    expect(await server.store.db.selectFrom('hub_files').selectAll().execute()).toEqual([]);
  });

  it('offers only the configured formats; another format is refused before anything runs', async () => {
    await turn(
      [
        {
          toolCalls: [
            { toolName: 'generate_file', input: { filename: 'a.html', format: 'html', content: '<p>' } },
          ],
        },
        { text: 'ok' },
      ],
      { formats: ['csv'] },
    );
    const [result] = toolResults(server!.model.calls[1]!.prompt) as { type: string; value: string }[];
    expect(result!.type).toBe('error-text');
    expect(result!.value).toMatch(/^invalid_input: /);
    expect(await fileRows(server!.store)).toEqual({ files: [], chunks: [] });
  });
});
