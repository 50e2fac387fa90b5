import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditRecorder } from '../../src/audit/audit-recorder.js';
import { manualClock } from '../../src/clock.js';
import { createAssistants } from '../../src/hub/assistants/assistants.js';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog } from '../../src/hub/events/event-log.js';
import { createConversations } from '../../src/hub/store/conversations.js';
import { createToolCalls } from '../../src/hub/store/tool-calls.js';
import { createTurns } from '../../src/hub/store/turns.js';
import { createSecretBox } from '../../src/secrets/secret-box.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

describe.each(DIALECTS)('hub store ($name)', (dialect) => {
  async function setup() {
    test = await openTestStore(dialect);
    const clock = manualClock();
    const box = createSecretBox(Buffer.alloc(32, 7));
    const assistants = createAssistants(test.store.db, clock, box);
    const assistant = await assistants.create(test.accountId, {
      name: 'Store test',
      allowedOrigins: ['http://a.localhost'],
    });
    const conversations = createConversations(test.store.db, clock);
    const conversation = await conversations.create(assistant.id, 'anon_1');
    return { clock, assistants, assistant, conversations, conversation, db: test.store.db };
  }

  it('gives concurrent appends to one conversation the ids 1..n, each once', async () => {
    const { db, clock, conversation } = await setup();
    const bus = createEventBus();
    const woken: number[] = [];
    bus.subscribe(conversation.id, (event) => event && woken.push(event.id));
    const log = createEventLog(db, clock, bus);
    const events = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        log.append(conversation.id, { type: 'text.delta', turnId: 't', delta: String(index) }),
      ),
    );
    expect(events.map((event) => event.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect((await log.after(conversation.id, 20)).map((event) => event.id)).toEqual([21, 22, 23, 24, 25]);
    expect(await log.lastId(conversation.id)).toBe(25);
    expect(woken.sort((a, b) => a - b)).toEqual(events.map((event) => event.id).sort((a, b) => a - b));
  });

  it('lets exactly one turn claim a conversation, and exactly one runner hold a turn’s lease', async () => {
    const { db, clock, conversations, conversation } = await setup();
    const claims = await Promise.allSettled(
      ['trn_a', 'trn_b', 'trn_c'].map((id) => conversations.claimTurn(conversation.id, id)),
    );
    expect(claims.filter((claim) => claim.status === 'fulfilled')).toHaveLength(1);
    const turns = createTurns(db, clock);
    const turn = await turns.create(conversation.id, { tools: [], intents: [] });
    const leases = await Promise.all(
      ['one', 'two', 'three'].map((owner) => turns.lease(turn.id, owner, 1_000)),
    );
    expect(leases.filter(Boolean)).toHaveLength(1);
    clock.advance(1_001);
    expect(await turns.lease(turn.id, 'four', 1_000)).toBe(true);
    expect(await turns.orphaned()).toEqual([]);
    clock.advance(1_001);
    expect(await turns.orphaned()).toEqual([turn.id]);
  });

  it('lets one of an answer, a timeout and a cancel close an interrupt', async () => {
    const { db, clock, conversation } = await setup();
    const turns = createTurns(db, clock);
    const turn = await turns.create(conversation.id, { tools: ['read_page'], intents: [] });
    const calls = createToolCalls(db, clock, createAuditRecorder(clock, 'test'));
    await calls.insertStep([
      {
        id: 'tc_1',
        turnId: turn.id,
        step: 0,
        position: 0,
        modelCallId: 'call_1',
        tool: 'read_page',
        kind: 'browser',
        args: {},
        status: 'interrupt',
        severity: null,
        argsDigest: 'd',
        schema: null,
        output: null,
        expiresAt: clock.now() + 10,
      },
    ]);
    const outcomes = await Promise.all(
      ['answer', 'timeout', 'cancel'].map((who) =>
        calls.transition('tc_1', 'interrupt', 'done', { output: { type: 'error-text', value: who } }),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const row = await calls.get('tc_1');
    expect(row?.status).toBe('done');
  });

  it("tells a call's change how many other calls its step issued, and the call as it now is", async () => {
    const { db, clock, conversation } = await setup();
    const turns = createTurns(db, clock);
    const turn = await turns.create(conversation.id, { tools: ['read_page'], intents: [] });
    const calls = createToolCalls(db, clock, createAuditRecorder(clock, 'test'));
    const call = (id: string, step: number, position: number) => ({
      id,
      turnId: turn.id,
      step,
      position,
      modelCallId: `call_${id}`,
      tool: 'read_page',
      kind: 'browser' as const,
      args: {},
      status: 'interrupt' as const,
      severity: null,
      argsDigest: 'd',
      schema: null,
      output: null,
      expiresAt: clock.now() + 10,
    });
    await calls.insertStep([call('tc_a', 0, 0), call('tc_b', 0, 1), call('tc_c', 0, 2)]);
    await calls.insertStep([call('tc_alone', 1, 0)]);
    const output = { type: 'json' as const, value: { text: 'read' } };
    const changed = await calls.transition('tc_b', 'interrupt', 'done', { output });
    expect(changed?.siblings).toBe(2);
    expect(changed?.call).toEqual(await calls.get('tc_b'));
    expect(changed?.call).toMatchObject({ status: 'done', output });
    const alone = await calls.transition('tc_alone', 'interrupt', 'done', { output });
    expect(alone?.siblings).toBe(0);
    expect(await calls.transition('tc_alone', 'interrupt', 'done', { output })).toBeUndefined();
  });

  it("keeps a call's deadline and resolution time: set when done, untouched otherwise; a call without a deadline has none", async () => {
    const { db, clock, conversation } = await setup();
    const turn = await createTurns(db, clock).create(conversation.id, { tools: ['read_page'], intents: [] });
    const calls = createToolCalls(db, clock, createAuditRecorder(clock, 'test'));
    const base = {
      turnId: turn.id,
      step: 0,
      tool: 'read_page',
      args: {},
      severity: null,
      argsDigest: 'd',
      schema: null,
      output: null,
    };
    await calls.insertStep([
      {
        ...base,
        id: 'tc_waits',
        modelCallId: 'call_waits',
        position: 0,
        kind: 'browser',
        status: 'interrupt',
        expiresAt: clock.now() + 500,
      },
      {
        ...base,
        id: 'tc_server',
        modelCallId: 'call_server',
        position: 1,
        kind: 'server',
        status: 'ready',
        expiresAt: null,
      },
      {
        ...base,
        id: 'tc_refused',
        modelCallId: 'call_refused',
        position: 2,
        kind: 'refused',
        status: 'done',
        expiresAt: null,
      },
    ]);
    expect((await calls.get('tc_waits'))?.expiresAt).toBe(clock.now() + 500);
    expect((await calls.get('tc_server'))?.expiresAt).toBeNull();
    const resolvedAt = async (id: string) =>
      (
        await db
          .selectFrom('hub_tool_calls')
          .select('resolved_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).resolved_at;
    expect(await calls.stepWaits(turn.id, 0)).toBe(true);
    clock.advance(40);
    await calls.transition('tc_server', 'ready', 'running');
    expect(await resolvedAt('tc_server')).toBeNull();
    clock.advance(60);
    await calls.transition('tc_waits', 'interrupt', 'done', { output: { type: 'json', value: 1 } });
    expect(Number(await resolvedAt('tc_waits'))).toBe(clock.now());
    expect(await calls.stepWaits(turn.id, 0)).toBe(false);
    // Where each ran, for the transcript: server and refused calls on the server, the rest in the page.
    expect(await calls.locations([])).toEqual(new Map());
    expect(await calls.locations([turn.id])).toEqual(
      new Map([
        ['call_waits', 'browser'],
        ['call_server', 'server'],
        ['call_refused', 'server'],
      ]),
    );
  });

  it('changes a call and writes its audit record together: an audit that fails leaves the call as it was', async () => {
    const { db, clock, conversation } = await setup();
    const turn = await createTurns(db, clock).create(conversation.id, { tools: [], intents: [] });
    const failing = {
      async record() {
        throw new Error('audit store unavailable');
      },
    };
    const calls = createToolCalls(db, clock, failing);
    await calls.insertStep([
      {
        id: 'tc_decided',
        turnId: turn.id,
        step: 0,
        position: 0,
        modelCallId: 'call_d',
        tool: 'item_write',
        kind: 'server',
        args: {},
        status: 'consensus',
        severity: 'high',
        argsDigest: 'd',
        schema: null,
        output: null,
        expiresAt: clock.now() + 500,
      },
    ]);
    const entry = {
      kind: 'consensus_decision' as const,
      actor: { kind: 'visitor' as const, id: 'anon_1' },
      subject: 'item_write',
      outcome: 'approve' as const,
    };
    await expect(
      calls.transition('tc_decided', 'consensus', 'ready', { answer: { decision: 'approve' }, audit: entry }),
    ).rejects.toThrow('audit store unavailable');
    expect(await calls.get('tc_decided')).toMatchObject({ status: 'consensus', answer: null });
  });

  it('keeps provider keys sealed: the row holds no plain secret, show() says only "set"', async () => {
    const { db, assistants, assistant } = await setup();
    await assistants.update(test!.accountId, assistant.id, {
      secrets: { providerKey: 'sk-live-very-secret-key-123' },
    });
    const rows = await db.selectFrom('hub_assistants').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('very-secret');
    const shown = await assistants.show(test!.accountId, assistant.id);
    expect(shown.secrets).toEqual({ providerKey: true, identitySecret: false, mcpTokens: [] });
    expect(JSON.stringify(shown)).not.toContain('very-secret');
    expect((await assistants.secretsOf(assistant.id)).providerKey).toBe('sk-live-very-secret-key-123');
  });
});
