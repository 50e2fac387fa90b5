import {
  ERROR_CODES,
  type ErrorCode,
  FILE_UPLOAD_PARTS,
  HUB_API_PREFIX,
  HUB_ROUTES,
  type HubEvent,
  hubPath,
} from '@diosc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventLog, type WireClient, type WireReply, wireClient } from './wire-client.js';
import { fakeHub, PICK_ROW, realHub, type WireTarget, WRITE } from './wire-targets.js';

/**
 * One contract, two hubs: every assertion here runs against the real hub (loopback HTTP, SQLite,
 * scripted model) and against the kit's fake hub, which the kit's own tests and host apps' tests
 * rely on — so the fake cannot drift from the hub without this failing.
 */

/** A refusal exactly as the hub sends one: the code table's status, `{ error: { code, message } }`. */
function expectRefusal(reply: WireReply<unknown>, code: ErrorCode): void {
  expect({ status: reply.status, code: (reply.body as { error?: { code?: string } })?.error?.code }).toEqual({
    status: ERROR_CODES[code].status,
    code,
  });
  expect(typeof (reply.body as { error: { message: unknown } }).error.message).toBe('string');
}

/** A turn's events as a shape: types in order (a run of text deltas is one), tools named. */
function shapeOf(events: HubEvent[], turnId: string): string[] {
  const shape: string[] = [];
  for (const event of events) {
    if (!('turnId' in event) || event.turnId !== turnId) continue;
    const named =
      'tool' in event && typeof event.tool === 'string' ? `${event.type}:${event.tool}` : event.type;
    if (named !== shape.at(-1) || named !== 'text.delta') shape.push(named);
  }
  return shape;
}

describe.each([
  { name: 'the real hub', start: realHub },
  { name: 'the fake hub', start: fakeHub },
])('the hub wire contract: $name', ({ start }) => {
  let target: WireTarget;
  let visitor: WireClient;
  let conversation: string;
  let log: EventLog;

  /** Sends a message after planning the turn; resolves with the turn id. */
  const turn = async (plan: Parameters<WireTarget['plan']>[0], text: string, extra: object = {}) => {
    target.plan(plan);
    const sent = await visitor.call('sendMessage', { id: conversation, body: { text, ...extra } });
    expect(sent.status).toBe(HUB_ROUTES.sendMessage.status);
    expect(Object.keys(sent.body).sort()).toEqual(['messageId', 'turnId']);
    return sent.body.turnId;
  };
  const finished = (turnId: string) =>
    expect
      .poll(() => log.events.some((event) => event.type === 'turn.done' && event.turnId === turnId), {
        timeout: 20_000,
      })
      .toBe(true);

  beforeAll(async () => {
    target = await start();
    visitor = wireClient(target);
    const opened = await visitor.call('openSession', { body: { publishableKey: target.publishableKey } });
    expect(opened.status).toBe(HUB_ROUTES.openSession.status);
    visitor.token = opened.body.token;
    const created = await visitor.call('createConversation', { body: {} });
    expect(created.status).toBe(HUB_ROUTES.createConversation.status);
    conversation = created.body.id;
    log = await visitor.events(conversation);
  });
  afterAll(async () => {
    log?.close();
    await target?.close();
  });

  it('opens a session: a token, the visitor, its expiry and the assistant’s public view', async () => {
    const opened = await wireClient(target).call('openSession', {
      body: { publishableKey: target.publishableKey },
    });
    expect(Object.keys(opened.body).sort()).toEqual(['assistant', 'expiresAt', 'token', 'visitorId']);
    expect(Object.keys(opened.body.assistant).sort()).toEqual([
      'browserTools',
      'files',
      'id',
      'modelLabel',
      'name',
      'outsideLinks',
    ]);
    expect(opened.body.assistant.browserTools).toEqual([PICK_ROW]);
    expect(Date.parse(opened.body.expiresAt)).toBeGreaterThan(Date.now());
    const assistant = await visitor.call('assistant');
    expect(assistant.status).toBe(HUB_ROUTES.assistant.status);
    expect(assistant.body).toEqual(opened.body.assistant);
  });

  it('refuses an unknown key, an unknown field, a missing or a forged session', async () => {
    const stranger = wireClient(target);
    expectRefusal(
      await stranger.call('openSession', { body: { publishableKey: 'pk_not_an_assistant_01' } }),
      'unknown_assistant',
    );
    expectRefusal(
      await stranger.call('openSession', { body: { publishableKey: target.publishableKey, admin: true } }),
      'invalid_input',
    );
    expectRefusal(await stranger.call('assistant'), 'unauthenticated');
    expectRefusal(
      await stranger.call('createConversation', { body: {}, token: 'vst_forged_token_value' }),
      'unauthenticated',
    );
  });

  it('refuses what the table does not hold, and bodies it does not take', async () => {
    expectRefusal(await visitor.raw('GET', '/no-such-route'), 'not_found');
    expectRefusal(await visitor.raw('POST', '/conversations', '{"title":"mine"}'), 'invalid_input');
    expectRefusal(
      await visitor.raw('POST', `/conversations/${conversation}/messages`, '{"text":'),
      'invalid_input',
    );
    expectRefusal(
      await visitor.call('sendMessage', { id: conversation, body: { text: 'hi', model: 'gpt-9' } }),
      'invalid_input',
    );
  });

  it('runs a text turn: started, streamed, saved, done — and the conversation reads it back', async () => {
    const turnId = await turn({ say: 'Hello **there**.' }, 'Hi');
    await finished(turnId);
    expect(shapeOf(log.events, turnId)).toEqual(['turn.started', 'text.delta', 'message', 'turn.done']);
    const view = await visitor.call('conversation', { id: conversation });
    expect(view.status).toBe(HUB_ROUTES.conversation.status);
    expect(Object.keys(view.body).sort()).toEqual([
      'id',
      'lastEventId',
      'messages',
      'pendingConsensus',
      'pendingInterrupts',
      'turn',
    ]);
    expect(view.body.turn).toEqual({ id: turnId, status: 'done' });
    expect(view.body.messages.slice(-2).map((message) => [message.role, message.text])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello **there**.'],
    ]);
    expect(view.body.lastEventId).toBe(log.events.at(-1)!.id);
    const list = await visitor.call('listConversations');
    expect(list.body.conversations.map((each) => each.id)).toContain(conversation);
  });

  it('waits on the page for a browser tool; takes the answer once, a repeat as duplicate, another as a conflict', async () => {
    const from = log.events.length;
    const turnId = await turn({ tool: 'pick_row', args: { id: '7' }, reply: 'Picked row 7.' }, 'Pick row 7', {
      registry: { tools: ['pick_row'], intents: [] },
    });
    const asked = await log.next('interrupt', from);
    expect(asked.interrupt).toMatchObject({
      turnId,
      conversationId: conversation,
      name: 'browser:pick_row',
      tool: 'pick_row',
      kind: 'tool',
      args: { id: '7' },
    });
    expect(Date.parse(asked.interrupt.expiresAt)).toBeGreaterThan(Date.now());
    const pending = await visitor.call('conversation', { id: conversation });
    expect(pending.body.turn).toEqual({ id: turnId, status: 'waiting' });
    expect(pending.body.pendingInterrupts).toEqual([asked.interrupt]);

    const answer = { result: { picked: '7' } };
    const first = await visitor.call('answerInterrupt', { id: asked.interrupt.id, body: answer });
    expect([first.status, first.body]).toEqual([HUB_ROUTES.answerInterrupt.status, { status: 'accepted' }]);
    await finished(turnId);
    expect((await visitor.call('answerInterrupt', { id: asked.interrupt.id, body: answer })).body).toEqual({
      status: 'duplicate',
    });
    expectRefusal(
      await visitor.call('answerInterrupt', { id: asked.interrupt.id, body: { result: { picked: '8' } } }),
      'result_conflict',
    );
    expect(shapeOf(log.events, turnId)).toEqual([
      'turn.started',
      'tool.started:pick_row',
      'interrupt',
      'interrupt.resolved',
      'tool.finished:pick_row',
      'text.delta',
      'message',
      'turn.done',
    ]);
    const saved = (await visitor.call('conversation', { id: conversation })).body.messages.at(-1)!;
    expect(saved.tools).toMatchObject([{ tool: 'pick_row', where: 'browser', ok: true }]);
  });

  it('holds a server tool for the visitor’s decision, bound to the arguments’ digest', async () => {
    const from = log.events.length;
    const turnId = await turn({ approve: WRITE, reply: 'Written.' }, 'Write the plan');
    const requested = await log.next('consensus.requested', from);
    expect(requested.request).toMatchObject({ turnId, tool: 'item_write', severity: 'high', args: WRITE });
    expect(requested.request.argsDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof requested.request.summary).toBe('string');
    const waiting = await visitor.call('conversation', { id: conversation });
    expect(waiting.body.pendingConsensus).toEqual([requested.request]);

    const id = requested.request.id;
    expectRefusal(
      await visitor.call('decideConsensus', {
        id,
        body: { decision: 'approve', argsDigest: '0'.repeat(64) },
      }),
      'decision_mismatch',
    );
    expectRefusal(
      await visitor.call('decideConsensus', {
        id,
        body: { decision: 'approve', argsDigest: requested.request.argsDigest, reason: 'why not' },
      }),
      'invalid_input',
    );
    const approved = await visitor.call('decideConsensus', {
      id,
      body: { decision: 'approve', argsDigest: requested.request.argsDigest },
    });
    expect([approved.status, approved.body]).toEqual([
      HUB_ROUTES.decideConsensus.status,
      { status: 'accepted' },
    ]);
    await finished(turnId);
    expectRefusal(
      await visitor.call('decideConsensus', {
        id,
        body: { decision: 'approve', argsDigest: requested.request.argsDigest },
      }),
      'consensus_not_pending',
    );
    expect(shapeOf(log.events, turnId)).toEqual([
      'turn.started',
      'tool.started:item_write',
      'consensus.requested',
      'consensus.resolved',
      'tool.finished:item_write',
      'text.delta',
      'message',
      'turn.done',
    ]);
  });

  it('a rejected server tool is declined, and the turn goes on', async () => {
    const from = log.events.length;
    const turnId = await turn(
      { approve: { ...WRITE, item: 'other', requestId: 'req-plan-2' }, reply: 'Not written.' },
      'Write another',
    );
    const requested = await log.next('consensus.requested', from);
    const rejected = await visitor.call('decideConsensus', {
      id: requested.request.id,
      body: { decision: 'reject', argsDigest: requested.request.argsDigest, reason: 'Not now.' },
    });
    expect(rejected.body).toEqual({ status: 'accepted' });
    await finished(turnId);
    const ended = log.events.find((event) => event.type === 'tool.finished' && event.turnId === turnId);
    expect(ended).toMatchObject({ tool: 'item_write', ok: false, summary: 'declined' });
  });

  it('cancels a waiting turn: its interrupt closes, a late answer is refused, messages are taken again', async () => {
    const from = log.events.length;
    const turnId = await turn({ tool: 'pick_row', args: { id: '9' }, reply: 'Never said.' }, 'Pick row 9', {
      registry: { tools: ['pick_row'], intents: [] },
    });
    const asked = await log.next('interrupt', from);
    const cancelled = await visitor.call('cancelTurn', { id: turnId, body: {} });
    expect([cancelled.status, cancelled.body]).toEqual([
      HUB_ROUTES.cancelTurn.status,
      { id: turnId, status: 'cancelled' },
    ]);
    await expect.poll(() => shapeOf(log.events, turnId).at(-1), { timeout: 20_000 }).toBe('turn.cancelled');
    expectRefusal(
      await visitor.call('answerInterrupt', { id: asked.interrupt.id, body: { result: { picked: '9' } } }),
      'interrupt_not_pending',
    );
    const view = await visitor.call('conversation', { id: conversation });
    expect([view.body.turn, view.body.pendingInterrupts]).toEqual([{ id: turnId, status: 'cancelled' }, []]);
    const next = await turn({ say: 'Back.' }, 'Again');
    await finished(next);
  });

  it('resumes the event stream after Last-Event-ID, and refuses a point past the newest event', async () => {
    const newest = log.events.at(-1)!.id;
    const resumed = await visitor.events(conversation, newest - 2);
    await expect.poll(() => resumed.events.length, { timeout: 20_000 }).toBe(2);
    expect(resumed.events.map((event) => event.id)).toEqual([newest - 1, newest]);
    resumed.close();
    await expect(visitor.events(conversation, newest + 5)).rejects.toThrow(
      `"code":"event_id_ahead","message":"Last-Event-ID ${newest + 5} is past the newest event (${newest})`,
    );
  });

  it('takes a visitor’s file and gives it back to that visitor only', async () => {
    const form = new FormData();
    form.append(FILE_UPLOAD_PARTS.file, new File(['id,name\n7,Tea\n'], 'rows.csv', { type: 'text/csv' }));
    const uploaded = await visitor.upload(conversation, form);
    expect(uploaded.status).toBe(HUB_ROUTES.uploadFile.status);
    expect(Object.keys(uploaded.body).sort()).toEqual([
      'downloadUrl',
      'fileId',
      'filename',
      'format',
      'sizeBytes',
    ]);
    expect(uploaded.body).toMatchObject({ filename: 'rows.csv', sizeBytes: 14 });
    expect(uploaded.body.downloadUrl).toBe(
      `${HUB_API_PREFIX}${hubPath('downloadFile', uploaded.body.fileId)}`,
    );
    const bytes = await visitor.download(uploaded.body.fileId);
    expect([bytes.status, bytes.text]).toEqual([HUB_ROUTES.downloadFile.status, 'id,name\n7,Tea\n']);
    const other = wireClient(target);
    other.token = (
      await other.call('openSession', { body: { publishableKey: target.publishableKey } })
    ).body.token;
    expect((await other.download(uploaded.body.fileId)).status).toBe(ERROR_CODES.not_found.status);
  });

  it('keeps visitors apart: another visitor’s conversation, interrupt or turn is not there', async () => {
    const other = wireClient(target);
    other.token = (
      await other.call('openSession', { body: { publishableKey: target.publishableKey } })
    ).body.token;
    expectRefusal(await other.call('conversation', { id: conversation }), 'not_found');
    expectRefusal(
      await other.call('sendMessage', { id: conversation, body: { text: 'mine now' } }),
      'not_found',
    );
    const lastTurn = (await visitor.call('conversation', { id: conversation })).body.turn!;
    expectRefusal(await other.call('cancelTurn', { id: lastTurn.id, body: {} }), 'not_found');
    expectRefusal(await visitor.call('cancelTurn', { id: lastTurn.id, body: {} }), 'turn_not_active');
  });
});
