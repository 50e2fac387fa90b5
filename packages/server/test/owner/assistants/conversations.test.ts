import type {
  AssistantUsageView,
  AssistantView,
  ConversationDeletion,
  ConversationPage,
  TranscriptView,
} from '@diosc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/hub/model/scripted/scripted-model.js';
import { describeOnDialects } from '../../hub/support/hub-server.js';
import { rowCounts } from '../../hub/support/rows.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

const PROPOSED = { filename: 'report.csv', format: 'csv', content: 'id,name\n1,Ada\n' };
const EDITED = { filename: 'report.csv', format: 'csv', content: 'id,name\n1,Grace\n' };

describeOnDialects('assistant admin: conversations, transcripts and usage', () => {
  let admin: AdminHarness;
  let assistant: AssistantView;
  let conversation: string;
  beforeAll(async () => {
    admin = await startAdmin({
      script: (call) =>
        [
          { text: 'Let me look.', toolCalls: [{ toolName: 'highlight_row', input: { id: '7' } }] },
          { toolCalls: [{ toolName: 'generate_file', input: PROPOSED }] },
          { text: 'Here is your <b>report</b>.' },
        ][call.index] ?? { text: 'Again.' },
    });
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: {
        name: 'Transcripts',
        model: { provider: 'scripted', id: 'test' },
        allowedOrigins: [admin.server.pageOrigin],
        browserTools: [
          { name: 'highlight_row', description: 'Highlight a row.', inputSchema: { type: 'object' } },
        ],
        serverTools: {
          generateFile: { enabled: true, formats: ['csv'] },
          consensus: { generate_file: 'medium' },
        },
      },
    });
    assistant = created.body.assistant;
    const record = (await admin.server.app.diosc.hub!.services.assistants.find(assistant.id))!;
    const visit = await admin.server.visit(record);
    conversation = visit.conversation;
    const { client, stream } = visit;
    await client.send(conversation, {
      text: 'Report row 7',
      registry: { tools: ['highlight_row'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    await client.answer(interrupt.id, { result: { highlighted: '7' } });
    const { request } = await stream.until('consensus.requested');
    await client.decide(request.id, { decision: 'edit', argsDigest: request.argsDigest, args: EDITED });
    await stream.until('turn.done');
  });
  afterAll(() => admin.server.close());

  it('lists the conversation with its turns, status, tools and files', async () => {
    const page = await admin.api<ConversationPage>(`/${assistant.id}/conversations`);
    expect(page.status).toBe(200);
    expect(page.body.nextCursor).toBeNull();
    expect(page.body.conversations).toEqual([
      {
        id: conversation,
        title: expect.any(String),
        visitorId: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        turns: 1,
        status: 'done',
        toolCalls: 2,
        toolsCalled: ['highlight_row', 'generate_file'],
        files: 1,
      },
    ]);
  });

  it('gives the transcript as data: messages, the interrupt, the Edit decision with what was proposed, the file', async () => {
    const { body } = await admin.api<TranscriptView>(`/${assistant.id}/conversations/${conversation}`);
    expect(body.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'Report row 7'],
      ['assistant', 'Let me look.\n\nHere is your <b>report</b>.'],
    ]);
    expect(body.messages[1]!.files).toEqual([
      expect.objectContaining({ filename: 'report.csv', format: 'csv' }),
    ]);
    expect(body.turns).toHaveLength(1);
    const [turn] = body.turns;
    expect(turn).toMatchObject({ status: 'done', error: null });
    expect(body.messages[1]!.turnId).toBe(turn!.id);
    const [browser, server] = turn!.toolCalls;
    expect(browser).toMatchObject({
      tool: 'highlight_row',
      kind: 'browser',
      status: 'done',
      args: { id: '7' },
      interrupt: { state: 'answered' },
      consensus: null,
      result: { ok: true, text: '{"highlighted":"7"}' },
    });
    expect(server).toMatchObject({
      tool: 'generate_file',
      kind: 'server',
      severity: 'medium',
      args: EDITED,
      interrupt: null,
      consensus: { state: 'decided', decision: 'edit', proposedArgs: PROPOSED, changed: ['content'] },
      result: { ok: true },
      files: [expect.objectContaining({ filename: 'report.csv', sizeBytes: EDITED.content.length })],
    });
  });

  it("lets the owner download a chip's file through the owner API, an attachment, and no one else", async () => {
    const { body } = await admin.api<TranscriptView>(`/${assistant.id}/conversations/${conversation}`);
    const chip = body.turns[0]!.toolCalls[1]!.files[0]!;
    expect(chip.downloadUrl).toBe(`/api/owner/assistants/${assistant.id}/files/${chip.fileId}`);
    expect(body.messages[1]!.files[0]!.downloadUrl).toBe(chip.downloadUrl);
    const download = await fetch(`${admin.server.url}${chip.downloadUrl}`, {
      headers: { cookie: admin.owner.cookie },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await download.text()).toBe(EDITED.content);
    expect((await fetch(`${admin.server.url}${chip.downloadUrl}`)).status).toBe(401);
    const elsewhere = await admin.api(`/${admin.server.assistant.id}/files/${chip.fileId}`);
    expect(codeOf(elsewhere.body)).toBe('not_found');
  });

  it('counts turns, tool calls and model tokens per day, and errors by code', async () => {
    const usage = await admin.api<AssistantUsageView>(`/${assistant.id}/usage?days=7`);
    expect(usage.body.days).toHaveLength(7);
    const today = usage.body.days.at(-1)!;
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today).toMatchObject({ turns: 1, toolCalls: 2 });
    expect(today.inputTokens).toBeGreaterThan(0);
    expect(today.outputTokens).toBeGreaterThan(0);
    expect(usage.body.days.slice(0, -1).every((day) => day.turns === 0 && day.inputTokens === 0)).toBe(true);
    expect(usage.body.errors).toEqual([]);
  });

  it('pages the list with a cursor', async () => {
    const record = (await admin.server.app.diosc.hub!.services.assistants.find(assistant.id))!;
    await admin.server.visit(record);
    const first = await admin.api<ConversationPage>(`/${assistant.id}/conversations?limit=1`);
    expect(first.body.conversations).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await admin.api<ConversationPage>(
      `/${assistant.id}/conversations?limit=1&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.conversations).toHaveLength(1);
    expect(second.body.conversations[0]!.id).not.toBe(first.body.conversations[0]!.id);
    expect(second.body.nextCursor).toBeNull();
    expect(
      second.body.conversations[0]!.id === conversation || first.body.conversations[0]!.id === conversation,
    ).toBe(true);
  });

  it('deletes the conversation and its file: the bytes are gone from the store; usage tokens remain', async () => {
    const db = admin.server.store.db;
    const file = await db
      .selectFrom('hub_files')
      .select('id')
      .where('conversation_id', '=', conversation)
      .executeTakeFirstOrThrow();
    const chunks = await db
      .selectFrom('hub_file_chunks')
      .select('seq')
      .where('file_id', '=', file.id)
      .execute();
    expect(chunks.length).toBeGreaterThan(0);
    const before = await rowCounts(admin.server.store);

    const deleted = await admin.api<ConversationDeletion>(`/${assistant.id}/conversations/${conversation}`, {
      method: 'DELETE',
    });
    expect(deleted.body).toEqual({ id: conversation, deleted: true, filesDeleted: 1 });
    expect(await db.selectFrom('hub_files').select('id').where('id', '=', file.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('hub_file_chunks').select('seq').where('file_id', '=', file.id).execute(),
    ).toEqual([]);
    for (const table of ['hub_messages', 'hub_turns', 'hub_tool_calls', 'hub_events'] as const) {
      const left = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBeLessThan(before[table]!);
    }
    const after = await rowCounts(admin.server.store);
    expect(after.hub_files).toBe(before.hub_files! - 1);
    expect(codeOf((await admin.api(`/${assistant.id}/conversations/${conversation}`)).body)).toBe(
      'not_found',
    );
    expect(
      codeOf((await admin.api(`/${assistant.id}/conversations/${conversation}`, { method: 'DELETE' })).body),
    ).toBe('not_found');
    const usage = await admin.api<AssistantUsageView>(`/${assistant.id}/usage?days=1`);
    expect(usage.body.days[0]!.inputTokens).toBeGreaterThan(0);
  });

  it('stops a waiting turn when its conversation is deleted', async () => {
    const record = (await admin.server.app.diosc.hub!.services.assistants.find(assistant.id))!;
    admin.server.model.calls.length = 0;
    const { client, conversation: waiting, stream } = await admin.server.visit(record);
    // The script's first step for this conversation calls the page's tool; nobody answers it.
    await client.send(waiting, { text: 'Go', registry: { tools: ['highlight_row'], intents: [] } });
    await stream.until('interrupt');
    const deleted = await admin.api(`/${assistant.id}/conversations/${waiting}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const turns = await admin.server.store.db
      .selectFrom('hub_turns')
      .select('id')
      .where('conversation_id', '=', waiting)
      .execute();
    expect(turns).toEqual([]);
  });
});

describeOnDialects('assistant admin: usage counts errors by code', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    const broken = createScriptedModel(() => {
      throw new Error('The upstream is down.');
    });
    admin = await startAdmin({ hub: { scriptedModels: { broken } } });
  });
  afterAll(() => admin.server.close());

  it('reports a failed turn under its code', async () => {
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: {
        name: 'Broken',
        model: { provider: 'scripted', id: 'broken' },
        allowedOrigins: [admin.server.pageOrigin],
      },
    });
    const record = (await admin.server.app.diosc.hub!.services.assistants.find(created.body.assistant.id))!;
    const { client, conversation, stream } = await admin.server.visit(record);
    await client.send(conversation, { text: 'hi' });
    const failed = await stream.until('turn.failed');
    const usage = await admin.api<AssistantUsageView>(`/${record.id}/usage?days=1`);
    expect(usage.body.errors).toEqual([{ code: failed.error.code, count: 1 }]);
    expect(usage.body.days[0]).toMatchObject({ turns: 1, toolCalls: 0 });
    const page = await admin.api<ConversationPage>(`/${record.id}/conversations`);
    expect(page.body.conversations[0]).toMatchObject({ status: 'failed', turns: 1 });
  });
});
