import type { AuditPage, AuditRecordView } from '@diosc/protocol';
import { SignJWT } from 'jose';
import { afterEach, expect, it } from 'vitest';
import { browserClient } from '../browser-access/browser-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../hub/support/hub-server.js';
import { rowCounts } from '../hub/support/rows.js';
import { callJson, type OwnerSession, signIn } from '../owner/owner-client.js';

const IDENTITY_SECRET = 'an-identity-secret-of-at-least-32-characters';
const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const write = (item: string, title: string) => ({
  collection: 'notes',
  item,
  requestId: `req-${item}-0001`,
  ifNoneMatch: '*',
  content: { title, body: 'Ship the hub.', contentType: 'text/plain' },
});

/** Every audit row as stored, oldest first. */
async function auditRows(kind?: string) {
  let query = server!.store.db.selectFrom('audit_records').selectAll().orderBy('at').orderBy('id');
  if (kind) query = query.where('kind', '=', kind);
  return query.execute();
}

/** The owner's view of the test assistant's audit, with a query string. */
async function auditOf(owner: OwnerSession, query = '') {
  return callJson<AuditPage>(server!.url, `/assistants/${server!.assistant.id}/audit${query}`, owner);
}

/** Fails when any of the secrets appears anywhere in the audit (rows and the owner's view). */
async function expectNoSecret(owner: OwnerSession, secrets: readonly string[]) {
  const stored = JSON.stringify(await auditRows());
  const shown = JSON.stringify((await auditOf(owner, '?limit=200')).body);
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    expect(stored).not.toContain(secret);
    expect(shown).not.toContain(secret);
  }
}

describeOnDialects('the audit of decisions', () => {
  it('records each Consensus decision of an identified user once; a mismatched or second decision records nothing', async () => {
    server = await startHubServer({
      script: [
        { toolCalls: [{ toolName: 'item_write', input: write('one', 'First') }] },
        { toolCalls: [{ toolName: 'item_write', input: write('two', 'Second') }] },
        { toolCalls: [{ toolName: 'item_write', input: write('three', 'Third') }] },
        { text: 'Finished.' },
      ],
      assistant: {
        secrets: { identitySecret: IDENTITY_SECRET },
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }] },
          consensus: { item_write: 'high' },
        },
      },
    });
    const identity = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-17')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(IDENTITY_SECRET));
    const client = server.client();
    await client.open(server.assistant.publishableKey, identity);
    const conversation = await client.conversation();
    const stream = client.stream(conversation);
    await stream.ready;
    await client.send(conversation, { text: 'Write three notes' });

    const first = (await stream.until('consensus.requested')).request;
    const before = { rows: await rowCounts(server.store), audit: await auditRows('consensus_decision') };
    const mismatch = await client.decide(first.id, { decision: 'approve', argsDigest: '0'.repeat(64) });
    expect(code(mismatch.body)).toBe('decision_mismatch');
    const badEdit = await client.decide(first.id, {
      decision: 'edit',
      argsDigest: first.argsDigest,
      args: { ...first.args, collection: 42 },
    });
    expect(code(badEdit.body)).toBe('invalid_input');
    expect({ rows: await rowCounts(server.store), audit: await auditRows('consensus_decision') }).toEqual(
      before,
    );
    expect(before.audit).toEqual([]);

    const edited = { ...write('one', 'First, edited') };
    const editReply = await client.decide(first.id, {
      decision: 'edit',
      argsDigest: first.argsDigest,
      args: edited,
    });
    expect([editReply.status, editReply.body]).toEqual([200, { status: 'accepted' }]);
    const second = (await stream.until('consensus.requested', (event) => event.request.id !== first.id))
      .request;
    expect(
      (
        await client.decide(second.id, {
          decision: 'reject',
          argsDigest: second.argsDigest,
          reason: 'Not now, please',
        })
      ).status,
    ).toBe(200);
    const third = (
      await stream.until('consensus.requested', (event) => ![first.id, second.id].includes(event.request.id))
    ).request;
    expect(
      (await client.decide(third.id, { decision: 'approve', argsDigest: third.argsDigest })).status,
    ).toBe(200);
    // The same decision again is no decision: refused, and nothing more is recorded.
    const again = await client.decide(third.id, { decision: 'approve', argsDigest: third.argsDigest });
    expect(code(again.body)).toBe('consensus_not_pending');
    await stream.until('turn.done');

    const rows = await auditRows('consensus_decision');
    expect(
      rows.map((row) => ({
        assistant: row.assistant_id,
        actor: [row.actor_kind, row.actor_id],
        subject: row.subject,
        digest: row.args_digest,
        fields: JSON.parse(row.edited_fields),
        outcome: row.outcome,
        account: row.account_id,
      })),
    ).toEqual([
      {
        assistant: server.assistant.id,
        actor: ['identified_user', 'user:user-17'],
        subject: 'item_write',
        digest: first.argsDigest,
        fields: ['content'],
        outcome: 'edit',
        account: null,
      },
      {
        assistant: server.assistant.id,
        actor: ['identified_user', 'user:user-17'],
        subject: 'item_write',
        digest: second.argsDigest,
        fields: [],
        outcome: 'reject',
        account: null,
      },
      {
        assistant: server.assistant.id,
        actor: ['identified_user', 'user:user-17'],
        subject: 'item_write',
        digest: third.argsDigest,
        fields: [],
        outcome: 'approve',
        account: null,
      },
    ]);
    for (const row of rows) expect(row.instance).toBe(server.app.diosc.config.instanceId);
    const owner = await signIn(server.url);
    // Neither the visitor's token, nor the identity, nor the edited values, nor the reason.
    await expectNoSecret(owner, [
      client.token!,
      identity,
      IDENTITY_SECRET,
      'First, edited',
      'Not now, please',
      owner.csrfToken,
    ]);
  });

  it('records the kit’s approval report with the known changed names only; an answer without one, or a conflicting one, records nothing', async () => {
    const apply = { toolName: 'browser_apply_changes', input: { ops: [] } };
    server = await startHubServer({
      script: [{ toolCalls: [apply] }, { toolCalls: [apply] }, { text: 'Done.' }],
    });
    const { client, conversation, stream } = await server.visit();
    const editor = {
      tools: [],
      intents: [
        {
          name: 'apply_changes',
          description: 'Apply a diff.',
          schema: { type: 'object', properties: { ops: { type: 'array' }, note: { type: 'string' } } },
        },
      ],
    };
    await client.send(conversation, { text: 'apply', registry: editor });
    const first = (await stream.until('interrupt')).interrupt;
    const answer = {
      result: { success: true },
      decision: {
        decision: 'edit' as const,
        changed: ['ops', 'note', 'sk-live-pasted-into-a-name', 'ops'],
        reason: 'private reason',
      },
    };
    expect((await client.answer(first.id, answer)).body).toEqual({ status: 'accepted' });
    // The same body again is a no-op; another body a conflict: neither records.
    expect((await client.answer(first.id, answer)).body).toEqual({ status: 'duplicate' });
    const conflict = await client.answer(first.id, { ...answer, decision: { decision: 'reject' } });
    expect(code(conflict.body)).toBe('result_conflict');
    const second = (await stream.until('interrupt', (event) => event.interrupt.id !== first.id)).interrupt;
    expect((await client.answer(second.id, { result: { success: true } })).body).toEqual({
      status: 'accepted',
    });
    await stream.until('turn.done');

    const rows = await auditRows('approval_report');
    expect(rows).toHaveLength(1);
    const call = await server.store.db
      .selectFrom('hub_tool_calls')
      .select(['args_digest', 'tool'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(rows[0]).toMatchObject({
      assistant_id: server.assistant.id,
      actor_kind: 'visitor',
      subject: call.tool,
      args_digest: call.args_digest,
      edited_fields: JSON.stringify(['note', 'ops']),
      outcome: 'edit',
    });
    expect(rows[0]!.actor_id).toMatch(/^anon_/);
    const owner = await signIn(server.url);
    await expectNoSecret(owner, [client.token!, 'sk-live-pasted-into-a-name', 'private reason']);
  });

  it('records the owner’s browser-access review once; a wrong digest or a repeat records nothing', async () => {
    server = await startHubServer();
    const owner = await signIn(server.url);
    const browser = browserClient(server.url, owner);
    await browser.enable([{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }]);
    const input = write('reviewed', 'Reviewed secretly-titled note');
    const prepared = await browser.prepare('item_write', input);
    expect(prepared.status).toBe(201);
    const { receipt } = prepared.body;
    const wrong = await browser.acknowledge({ id: receipt.id, digest: 'f'.repeat(64) });
    expect(code(wrong.body)).toBe('receipt_mismatch');
    expect(await auditRows('browser_access_review')).toEqual([]);
    expect((await browser.acknowledge(receipt)).body).toEqual({ acknowledged: true });
    expect((await browser.acknowledge(receipt)).body).toEqual({ acknowledged: true });
    expect((await browser.execute(receipt)).status).toBe(200);

    const rows = await auditRows('browser_access_review');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: owner.accountId,
      assistant_id: null,
      actor_kind: 'owner',
      actor_id: owner.accountId,
      subject: 'item_write',
      args_digest: receipt.digest,
      outcome: 'acknowledged',
    });
    // Account-level: shown with the owner's assistant.
    const page = await auditOf(owner, '?kind=browser_access_review');
    expect(page.body.records.map((record) => record.outcome)).toEqual(['acknowledged']);
    await expectNoSecret(owner, [owner.csrfToken, owner.sessionId, 'Reviewed secretly-titled note']);
  });

  it('records each grant change of an MCP connection; a refused change or a second revoke records nothing', async () => {
    server = await startHubServer();
    const owner = await signIn(server.url);
    const created = await callJson<{ connection: { id: string }; token: string }>(
      server.url,
      '/connections',
      owner,
      { body: { displayName: 'Claude', grant: [{ collection: 'notes', functions: ['items_list'] }] } },
    );
    expect(created.status).toBe(201);
    const id = created.body.connection.id;
    const path = `/connections/${id}`;
    const refused = await callJson(server.url, `${path}/grant`, owner, {
      method: 'PUT',
      body: { grant: [{ collection: 'nowhere', functions: ['items_list'] }] },
    });
    expect(code(refused.body)).toBe('selection_invalid');
    const changed = await callJson(server.url, `${path}/grant`, owner, {
      method: 'PUT',
      body: {
        grant: [
          { collection: 'notes', functions: ['items_list', 'item_read'] },
          { collection: 'inbox', functions: ['items_list'] },
        ],
      },
    });
    expect(changed.status).toBe(200);
    const rotated = await callJson<{ token: string }>(server.url, `${path}/rotate`, owner, { body: {} });
    expect(rotated.status).toBe(200);
    expect((await callJson(server.url, path, owner, { method: 'DELETE' })).status).toBe(200);
    expect((await callJson(server.url, path, owner, { method: 'DELETE' })).status).toBe(200);

    const rows = (await auditRows('grant_change')).filter((row) => row.subject === id);
    expect(rows.map((row) => [row.outcome, JSON.parse(row.edited_fields)])).toEqual([
      ['created', ['notes']],
      ['changed', ['inbox', 'notes']],
      ['rotated', []],
      ['revoked', []],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        account_id: owner.accountId,
        actor_kind: 'owner',
        actor_id: owner.accountId,
      });
    }
    expect(rows[0]!.args_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[1]!.args_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[1]!.args_digest).not.toBe(rows[0]!.args_digest);
    await expectNoSecret(owner, [created.body.token, rotated.body.token, owner.csrfToken, owner.sessionId]);
  });

  it('lists the assistant’s audit for its owner with filters, newest first, bounded, and refuses unknown parameters', async () => {
    server = await startHubServer({
      assistant: {
        serverTools: { account: { grant: [{ collection: 'notes', functions: ['items_list'] }] } },
      },
    });
    const owner = await signIn(server.url);
    // The assistant's own account grant was recorded when it was created.
    const own = await auditOf(owner, '?kind=grant_change');
    expect(own.status).toBe(200);
    expect(own.body.records).toEqual([
      expect.objectContaining({ assistantId: server.assistant.id, outcome: 'created', kind: 'grant_change' }),
    ]);
    for (let n = 0; n < 3; n++) {
      const reply = await callJson(server.url, '/connections', owner, {
        body: { displayName: `App ${n}`, grant: [{ collection: 'notes', functions: ['items_list'] }] },
      });
      expect(reply.status).toBe(201);
    }
    const all = await auditOf(owner);
    expect(all.body.records).toHaveLength(4);
    expect(all.body.more).toBe(false);
    const times = all.body.records.map((record: AuditRecordView) => record.at);
    expect([...times].sort().reverse()).toEqual(times);
    const page = await auditOf(owner, '?limit=2');
    expect(page.body.records).toEqual(all.body.records.slice(0, 2));
    expect(page.body.more).toBe(true);
    expect((await auditOf(owner, '?outcome=revoked')).body.records).toEqual([]);
    expect((await auditOf(owner, '?kind=consensus_decision')).body.records).toEqual([]);
    expect((await auditOf(owner, '?since=1h')).body.records).toHaveLength(4);
    expect((await auditOf(owner, '?until=2000-01-01')).body.records).toEqual([]);
    const oldest = all.body.records.at(-1)!;
    expect((await auditOf(owner, `?until=${encodeURIComponent(oldest.at)}`)).body.records).toEqual([]);
    expect((await auditOf(owner, `?since=${encodeURIComponent(oldest.at)}`)).body.records).toHaveLength(4);
    for (const bad of [
      '?kind=all',
      '?outcome=maybe',
      '?since=last+week',
      '?limit=0',
      '?limit=201',
      '?visitor=x',
    ]) {
      const reply = await auditOf(owner, bad);
      expect([bad, reply.status, code(reply.body)]).toEqual([bad, 400, 'invalid_input']);
    }
    // Without a session: refused, and no record is shown.
    const anonymous = await callJson(server.url, `/assistants/${server.assistant.id}/audit`, null);
    expect(anonymous.status).toBe(401);
  });

  it('pages with `before` through records written in the same millisecond, each once', async () => {
    // The store's manual clock: every record below has the same time.
    server = await startHubServer({ realClock: false });
    const owner = await signIn(server.url);
    for (let n = 0; n < 4; n++) {
      const reply = await callJson(server.url, '/connections', owner, {
        body: { displayName: `App ${n}`, grant: [{ collection: 'notes', functions: ['items_list'] }] },
      });
      expect(reply.status).toBe(201);
    }
    const all = await auditOf(owner);
    expect(all.body.records).toHaveLength(4);
    expect(new Set(all.body.records.map((record) => record.at)).size).toBe(1);
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await auditOf(owner, `?limit=1${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.records.map((record) => record.id));
      if (!page.body.more) break;
      before = page.body.records.at(-1)!.id;
    }
    expect(seen).toEqual(all.body.records.map((record) => record.id));
    for (const bad of ['nope', 'aud_00000000-0000-4000-8000-000000000000']) {
      const reply = await auditOf(owner, `?before=${bad}`);
      expect([bad, code(reply.body)]).toEqual([bad, 'invalid_input']);
    }
  });
});
