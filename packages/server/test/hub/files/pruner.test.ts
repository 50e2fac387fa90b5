import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { downloadFile, fileRows, uploadFile } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MINUTE = 60_000;

async function visitor(options: { pruneEveryMs?: number } = {}) {
  server = await startHubServer({
    realClock: false,
    assistant: { files: { retentionMs: MINUTE, maxConversationBytes: 300_000 } },
    hub: { filePruneIntervalMs: options.pruneEveryMs ?? 3_600_000 },
  });
  return server.visit();
}

describeOnDialects('the file pruner', () => {
  it('removes the bytes of files past retention, keeps younger ones, and frees their quota', async () => {
    const { client, conversation } = await visitor();
    const old = (
      await uploadFile(client, conversation, { bytes: Buffer.alloc(280_000, 'o'), filename: 'old.txt' })
    ).body;
    server!.clock.advance(MINUTE / 2);
    const young = (await uploadFile(client, conversation, { bytes: 'young', filename: 'young.txt' })).body;
    server!.clock.advance(MINUTE / 2 + 1);

    const counts = await server!.app.diosc.hub!.services.files.prune();
    expect(counts).toEqual({ expired: 1, abandoned: 0 });
    const { files, chunks } = await fileRows(server!.store);
    expect(files.map((row) => [row.id, row.status])).toEqual([
      [old.fileId, 'expired'],
      [young.fileId, 'complete'],
    ]);
    expect(chunks).toEqual([{ file_id: young.fileId, seq: 0 }]);
    expect((await downloadFile(client, old.downloadUrl)).error?.code).toBe('file_expired');
    expect((await downloadFile(client, young.downloadUrl)).body.toString()).toBe('young');
    // The expired file no longer counts against the conversation's 300,000 bytes.
    expect(
      (await uploadFile(client, conversation, { bytes: Buffer.alloc(280_000, 'n'), filename: 'new.txt' }))
        .status,
    ).toBe(201);
    // Pruning again finds nothing more.
    expect(await server!.app.diosc.hub!.services.files.prune()).toEqual({ expired: 0, abandoned: 0 });
  });

  it('deletes an upload cut off while writing once it is an hour old; until then it is invisible', async () => {
    const { client, conversation } = await visitor();
    const { store } = server!.app.diosc.hub!.services.files;
    // What a crash between two chunks leaves behind.
    const fileId = await store.begin({
      assistant_id: server!.assistant.id,
      conversation_id: conversation,
      visitor_id: (
        await server!.store.db.selectFrom('hub_conversations').select('visitor_id').executeTakeFirstOrThrow()
      ).visitor_id,
      source: 'upload',
      interrupt_id: null,
      tool_call_id: null,
      filename: 'cut.txt',
      original_name: 'cut.txt',
      media_type: 'text/plain',
      format: 'txt',
      expires_at: server!.clock.now() + MINUTE,
    });
    await store.writeChunk(fileId, 0, Buffer.from('half'));
    expect((await downloadFile(client, `/api/hub/files/${fileId}`)).error?.code).toBe('not_found');
    const attached = await client.send(conversation, { text: 'see', attachments: [fileId] });
    expect(attached.status).toBe(400);
    expect(attached.body).toMatchObject({ error: { code: 'invalid_input' } });

    server!.clock.advance(59 * MINUTE);
    expect(await server!.app.diosc.hub!.services.files.prune()).toEqual({ expired: 0, abandoned: 0 });
    expect((await fileRows(server!.store)).chunks).toHaveLength(1);
    server!.clock.advance(MINUTE);
    expect(await server!.app.diosc.hub!.services.files.prune()).toEqual({ expired: 0, abandoned: 1 });
    expect(await fileRows(server!.store)).toEqual({ files: [], chunks: [] });
  });

  it('runs on its own timer inside the hub', async () => {
    const { client, conversation } = await visitor({ pruneEveryMs: 25 });
    await uploadFile(client, conversation, { bytes: 'soon gone', filename: 'a.txt' });
    server!.clock.advance(MINUTE + 1);
    const deadline = Date.now() + 5_000;
    while ((await fileRows(server!.store)).chunks.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const { files, chunks } = await fileRows(server!.store);
    expect(chunks).toEqual([]);
    expect(files.map((row) => row.status)).toEqual(['expired']);
  });
});
