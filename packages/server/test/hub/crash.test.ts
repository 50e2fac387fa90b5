import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HubEvent } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createHubFiles } from '../../src/hub/files/hub-files.js';
import type { CrashPoint } from './crash/crash-child.js';
import { type CrashChild, startCrashChild } from './crash/crash-child-process.js';
import { crashScript, MODEL_REPLY, TOOL_REPLY, tallyTool } from './crash/crash-script.js';
import { downloadFile, uploadFile } from './files/file-client.js';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from './support/hub-server.js';
import { type SecondInstance, startSecondInstance } from './support/second-instance.js';

/** The killed child's lease: the restarted instance takes the turn over once it has lapsed. */
const CHILD_LEASE_MS = 1_000;
const HOUR_MS = 60 * 60 * 1000;
/** A child process to start (tsx), kill and replace: generous on a loaded machine. */
const CRASH_TIMEOUT_MS = 120_000;

let server: HubTestServer | undefined;
let child: CrashChild | undefined;
let restarted: SecondInstance | undefined;
afterEach(async () => {
  await child?.kill();
  await restarted?.close();
  await server?.close();
  server = child = restarted = undefined;
});

/**
 * The store and a visitor (set up through an instance that runs no turns: its sweeper is off), then
 * the child that will be killed, serving over the same store.
 */
async function setUp(crashAt: CrashPoint) {
  server = await startHubServer({
    script: crashScript,
    hub: { sweepIntervalMs: HOUR_MS },
    assistant: { limits: { messagesPerMinute: 1_000 } },
  });
  const sideEffectFile = join(server.dir, 'tally.log');
  writeFileSync(sideEffectFile, '');
  child = await startCrashChild({ config: server.config, crashAt, leaseMs: CHILD_LEASE_MS, sideEffectFile });
  const visitor = server.client();
  await visitor.open(server.assistant.publishableKey);
  const conversation = await visitor.conversation();
  const onChild = new HubClient(child.url, visitor.origin);
  onChild.token = visitor.token;
  return { visitor, conversation, onChild, sideEffectFile };
}

/** The restart: a fresh instance over the store, whose sweeper resumes what the dead one held. */
async function restart(
  sideEffectFile: string,
): Promise<{ instance: SecondInstance; client: (of: HubClient) => HubClient }> {
  restarted = await startSecondInstance(server!, {
    sweepIntervalMs: 50,
    extraServerTools: () => [tallyTool(sideEffectFile)],
  });
  return { instance: restarted, client: (of) => restarted!.clientAs(of) };
}

async function killAtHold(expected: CrashPoint): Promise<void> {
  expect(await child!.held()).toBe(expected);
  expect(await child!.kill(), child!.stderr()).toBe('SIGKILL');
}

/** Every event a client got, across the dead stream and the resumed one: each id once, none missing. */
function expectExactlyOnce(before: HubEvent[], after: HubEvent[], lastSeen: number): void {
  expect(after[0]?.id).toBe(lastSeen + 1);
  const ids = [...before.filter((event) => event.id <= lastSeen), ...after].map((event) => event.id);
  expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
}

describeOnDialects('kill -9 of an instance', () => {
  it(
    'in the middle of a model step: the step runs again elsewhere, the stream resumes exactly',
    async () => {
      const { visitor, conversation, onChild, sideEffectFile } = await setUp('model.delta');
      const stream = onChild.stream(conversation);
      await stream.ready;
      const sent = await onChild.send(conversation, { text: 'crash-model' });
      await killAtHold('model.delta');
      // What the client had when its connection died (the delta may or may not have reached it).
      const before = [...stream.events];
      const lastSeen = before.at(-1)?.id ?? 0;
      stream.close();

      const { instance, client } = await restart(sideEffectFile);
      const resumed = client(visitor).stream(conversation, lastSeen);
      await resumed.ready;
      const { message } = await resumed.until('message', () => true, 30_000);
      expect(message.text).toBe(MODEL_REPLY);
      await resumed.until('turn.done');
      expectExactlyOnce(before, resumed.events, lastSeen);
      // The dead attempt's delta stays in the log; the step's one stored result is the second run's.
      const log = await instance.app.diosc.hub!.services.events.after(conversation, 0);
      expect(log.filter((event) => event.type === 'text.delta').length).toBeGreaterThanOrEqual(2);
      expect(log.filter((event) => event.type === 'turn.done')).toHaveLength(1);
      expect(server!.model.calls).toHaveLength(1);
      const turn = await server!.store.db
        .selectFrom('hub_turns')
        .select(['status', 'lease_owner'])
        .where('id', '=', sent.body.turnId)
        .executeTakeFirstOrThrow();
      expect(turn).toEqual({ status: 'done', lease_owner: null });
      const messages = await server!.store.db
        .selectFrom('hub_messages')
        .select('role')
        .where('conversation_id', '=', conversation)
        .orderBy('seq')
        .execute();
      expect(messages.map((row) => row.role)).toEqual(['user', 'assistant']);
      resumed.close();
    },
    CRASH_TIMEOUT_MS,
  );

  it(
    'in the middle of a server-tool call: never run again, reported uncertain, the turn goes on',
    async () => {
      const { visitor, conversation, onChild, sideEffectFile } = await setUp('server-tool');
      const stream = onChild.stream(conversation);
      await stream.ready;
      const sent = await onChild.send(conversation, { text: 'crash-tool' });
      await killAtHold('server-tool');
      const before = [...stream.events];
      const lastSeen = before.at(-1)?.id ?? 0;
      stream.close();
      expect(readFileSync(sideEffectFile, 'utf8').trim().split('\n')).toHaveLength(1);

      const { client } = await restart(sideEffectFile);
      const resumed = client(visitor).stream(conversation, lastSeen);
      await resumed.ready;
      const { message } = await resumed.until('message', () => true, 30_000);
      expect(message.text).toBe(TOOL_REPLY);
      await resumed.until('turn.done');
      expectExactlyOnce(before, resumed.events, lastSeen);

      // Executed once (by the killed process), never again.
      const executions = readFileSync(sideEffectFile, 'utf8').trim().split('\n');
      expect(executions).toHaveLength(1);
      const [call] = await server!.store.db
        .selectFrom('hub_tool_calls')
        .select(['id', 'status', 'output_json'])
        .where('turn_id', '=', sent.body.turnId)
        .execute();
      expect(executions[0]!.split(' ')[0]).toBe(call!.id);
      expect(call!.status).toBe('done');
      expect(call!.output_json).toContain('uncertain');
      const all = [...before, ...resumed.events];
      const finished = all.filter((event) => event.type === 'tool.finished');
      expect(finished).toEqual([
        expect.objectContaining({ toolCallId: call!.id, ok: false, summary: 'uncertain' }),
      ]);
      // The restarted instance's model saw the uncertain result and answered; it ran one step.
      expect(server!.model.calls).toHaveLength(1);
      expect(JSON.stringify(server!.model.calls[0]!.prompt)).toContain('uncertain');
      resumed.close();
    },
    CRASH_TIMEOUT_MS,
  );

  it(
    'in the middle of a file upload: the half-stored file is never visible, and is pruned',
    async () => {
      const { visitor, conversation, onChild, sideEffectFile } = await setUp('file.chunk');
      // Three chunks' worth; the child dies after storing the first.
      const bytes = Buffer.alloc(700 * 1024, 'diosc crash test\n');
      // Settled as soon as it fails, so the rejection is never unhandled while the child is killed.
      const upload = uploadFile(onChild, conversation, {
        bytes,
        filename: 'notes.txt',
        type: 'text/plain',
      }).then(
        (reply) => reply.status,
        (error: unknown) => error,
      );
      await killAtHold('file.chunk');
      // The connection died with the process: no answer at all, so no descriptor the page could use.
      expect(await upload).toBeInstanceOf(Error);

      const { client } = await restart(sideEffectFile);
      const onRestarted = client(visitor);
      const [half] = await server!.store.db.selectFrom('hub_files').select(['id', 'status']).execute();
      expect(half?.status).toBe('writing');
      const chunks = await server!.store.db.selectFrom('hub_file_chunks').select('seq').execute();
      expect(chunks.map((row) => Number(row.seq))).toEqual([0]);
      // Not downloadable, not attachable, not listed.
      const download = await downloadFile(onRestarted, `/api/hub/files/${half!.id}`);
      expect(download.status).toBe(404);
      expect(download.error?.code).toBe('not_found');
      const attach = await onRestarted.send(conversation, { text: 'see attached', attachments: [half!.id] });
      expect(attach.status).toBe(400);
      expect(attach.body).toMatchObject({ error: { code: 'invalid_input' } });
      expect(await server!.store.db.selectFrom('hub_turns').select('id').execute()).toEqual([]);
      // The same upload again, on the restarted instance, stores whole.
      const again = await uploadFile(onRestarted, conversation, {
        bytes,
        filename: 'notes.txt',
        type: 'text/plain',
      });
      expect(again.status).toBe(201);
      const fetched = await downloadFile(onRestarted, again.body.downloadUrl);
      expect(fetched.body.equals(bytes)).toBe(true);
      // The pruner removes the abandoned row and its chunk an hour on; the complete file stays.
      const later = createHubFiles(server!.store.db, manualClock(Date.now() + 2 * HOUR_MS));
      await later.prune();
      const left = await server!.store.db.selectFrom('hub_files').select(['id', 'status']).execute();
      expect(left).toEqual([{ id: again.body.fileId, status: 'complete' }]);
      const leftChunks = await server!.store.db.selectFrom('hub_file_chunks').select('file_id').execute();
      expect(leftChunks.every((row) => row.file_id === again.body.fileId)).toBe(true);
    },
    CRASH_TIMEOUT_MS,
  );
});
