import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ownerActor, visitorActor } from '../../src/audit/audit-actor.js';
import { createAuditLog } from '../../src/audit/audit-log.js';
import { startAuditPruner } from '../../src/audit/audit-pruner.js';
import { type AuditRecorder, createAuditRecorder } from '../../src/audit/audit-recorder.js';
import { auditTimeOf } from '../../src/audit/audit-time.js';
import { createReviewReceipts } from '../../src/browser-access/review-receipts.js';
import { manualClock } from '../../src/clock.js';
import { DEFAULT_AUDIT_RETENTION_DAYS, loadConfig } from '../../src/config.js';
import { createConnections } from '../../src/connections/connections.js';
import { createAssistants } from '../../src/hub/assistants/assistants.js';
import { createConversations } from '../../src/hub/store/conversations.js';
import { createToolCalls } from '../../src/hub/store/tool-calls.js';
import { createTurns } from '../../src/hub/store/turns.js';
import { createSecretBox } from '../../src/secrets/secret-box.js';

const DAY_MS = 24 * 60 * 60_000;

/** A recorder whose insert fails, as a full disk or a lost connection would make it. */
const failingRecorder: AuditRecorder = {
  async record() {
    throw new Error('the audit store is gone');
  },
};

let test: TestStore | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await test?.close();
  test = undefined;
});

describe.each(DIALECTS)('audit store ($name)', (dialect) => {
  it('a decision whose record cannot be written does not happen: the call stays pending, the grant unchanged', async () => {
    test = await openTestStore(dialect);
    const { db } = test.store;
    const clock = test.clock;
    const assistants = createAssistants(db, clock, createSecretBox(Buffer.alloc(32, 7)));
    const assistant = await assistants.create(test.accountId, {
      name: 'Audit',
      allowedOrigins: ['http://a.localhost'],
    });
    const conversation = await createConversations(db, clock).create(assistant.id, 'anon_1');
    const turn = await createTurns(db, clock).create(conversation.id, { tools: [], intents: [] });
    const pending = {
      id: 'tc_1',
      turnId: turn.id,
      step: 0,
      position: 0,
      modelCallId: 'call_1',
      tool: 'item_write',
      kind: 'server' as const,
      args: {},
      status: 'consensus' as const,
      severity: 'high',
      argsDigest: 'd'.repeat(64),
      schema: null,
      output: null,
      expiresAt: null,
    };
    await createToolCalls(db, clock, createAuditRecorder(clock, 'test')).insertStep([pending]);
    const entry = {
      kind: 'consensus_decision' as const,
      actor: visitorActor('anon_1'),
      assistantId: assistant.id,
      subject: 'item_write',
      argsDigest: pending.argsDigest,
      outcome: 'approve' as const,
    };
    const failing = createToolCalls(db, clock, failingRecorder);
    await expect(failing.transition('tc_1', 'consensus', 'ready', { audit: entry })).rejects.toThrow(
      'the audit store is gone',
    );
    expect((await failing.get('tc_1'))?.status).toBe('consensus');
    expect(await db.selectFrom('audit_records').selectAll().execute()).toEqual([]);

    // With a working recorder the same decision commits with its one record; a second loses, records nothing.
    const calls = createToolCalls(db, clock, createAuditRecorder(clock, 'test'));
    expect((await calls.transition('tc_1', 'consensus', 'ready', { audit: entry }))?.call.status).toBe(
      'ready',
    );
    expect(await calls.transition('tc_1', 'consensus', 'ready', { audit: entry })).toBeUndefined();
    expect(await db.selectFrom('audit_records').select(['kind', 'outcome', 'instance']).execute()).toEqual([
      { kind: 'consensus_decision', outcome: 'approve', instance: 'test' },
    ]);

    const connections = createConnections(test.store, clock, createAuditRecorder(clock, 'test'));
    const { connection } = await connections.createMcp(test.accountId, {
      displayName: 'App',
      grant: [{ collection: 'notes', functions: ['items_list'] }],
    });
    const broken = createConnections(test.store, clock, failingRecorder);
    await expect(
      broken.changeGrant(test.accountId, connection.id, [{ collection: 'inbox', functions: ['items_list'] }]),
    ).rejects.toThrow('the audit store is gone');
    await expect(broken.revoke(test.accountId, connection.id)).rejects.toThrow('the audit store is gone');
    await expect(broken.createMcp(test.accountId, { displayName: 'Never', grant: [] })).rejects.toThrow(
      'the audit store is gone',
    );
    const after = await connections.get(test.accountId, connection.id);
    expect(after).toMatchObject({ grant_generation: 1, revoked_at: null });
    expect(JSON.parse(after.grant_json)).toEqual([{ collection: 'notes', functions: ['items_list'] }]);
    expect((await connections.list(test.accountId)).map((row) => row.displayName)).toEqual(['App']);

    const receipts = createReviewReceipts(db, clock, failingRecorder);
    const receipt = await receipts.create({
      accountId: test.accountId,
      sessionIdHash: 'session-hash',
      connectionId: connection.id,
      generation: 1,
      tool: 'item_delete',
      input: { collection: 'notes', item: 'x' },
    });
    await expect(receipts.acknowledge(receipt)).rejects.toThrow('the audit store is gone');
    const unreviewed = await receipts.find(test.accountId, 'session-hash', receipt.id);
    expect(unreviewed.acknowledged_at).toBeNull();
  });

  it('keeps records for the retention period: a prune removes exactly the older ones', async () => {
    test = await openTestStore(dialect);
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const recorder = createAuditRecorder(clock, 'test');
    const log = createAuditLog(test.store.db);
    const grant = (subject: string) => ({
      kind: 'grant_change' as const,
      actor: ownerActor(test!.accountId),
      accountId: test!.accountId,
      subject,
      outcome: 'created' as const,
    });
    await recorder.record(test.store.db, grant('oldest'));
    clock.advance(10 * DAY_MS);
    await recorder.record(test.store.db, grant('middle'));
    clock.advance(20 * DAY_MS);
    await recorder.record(test.store.db, grant('newest'));
    // Now is 30 days after the first. With 20 days kept, the 30-day-old record goes; the one exactly
    // 20 days old stays until a millisecond later.
    expect(await log.prune(20, clock.now())).toBe(1);
    const left = await log.list({ accountId: test.accountId }, 10);
    expect(left.records.map((record) => record.subject)).toEqual(['newest', 'middle']);
    expect(await log.prune(20, clock.now())).toBe(0);
    clock.advance(1);
    expect(await log.prune(20, clock.now())).toBe(1);
    expect((await log.list({ accountId: test.accountId }, 10)).records.map((r) => r.subject)).toEqual([
      'newest',
    ]);

    // The export reads page by page, oldest first, and sees each record once.
    for (let n = 0; n < 7; n++) {
      clock.advance(1);
      await recorder.record(test.store.db, grant(`n${n}`));
    }
    const exported: string[] = [];
    for await (const record of log.all({ accountId: test.accountId }, 3)) exported.push(record.subject);
    expect(exported).toEqual(['newest', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  });
});

describe('audit retention and times', () => {
  it('prunes on its interval with the configured retention and the clock’s now', async () => {
    vi.useFakeTimers();
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const prune = vi.fn(async () => 0);
    const stop = startAuditPruner({ log: { prune }, clock, retentionDays: 30, intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(prune).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(prune).toHaveBeenCalledWith(30, Date.UTC(2026, 5, 1));
    stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(prune).toHaveBeenCalledTimes(1);
  });

  it('reads the retention and the instance name from the configuration, refusing bad ones', () => {
    expect(loadConfig({}, '/tmp').auditRetentionDays).toBe(DEFAULT_AUDIT_RETENTION_DAYS);
    expect(loadConfig({ DIOSC_AUDIT_RETENTION_DAYS: '30' }, '/tmp').auditRetentionDays).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'forever', '36501']) {
      expect(() => loadConfig({ DIOSC_AUDIT_RETENTION_DAYS: bad }, '/tmp')).toThrow(
        /DIOSC_AUDIT_RETENTION_DAYS/,
      );
    }
    expect(loadConfig({}, '/tmp').instanceId).toMatch(new RegExp(`:${process.pid}$`));
    expect(loadConfig({ DIOSC_INSTANCE_ID: 'eu-1.hub-a' }, '/tmp').instanceId).toBe('eu-1.hub-a');
    expect(() => loadConfig({ DIOSC_INSTANCE_ID: 'two words' }, '/tmp')).toThrow(/DIOSC_INSTANCE_ID/);
  });

  it('reads a filter time as an ISO date, an ISO time with its zone, or a duration back from now', () => {
    const now = Date.UTC(2026, 11, 6, 12);
    expect(auditTimeOf('2026-12-01', 'since', now)).toBe(Date.UTC(2026, 11, 1));
    expect(auditTimeOf('2026-12-01T10:00:00Z', 'since', now)).toBe(Date.UTC(2026, 11, 1, 10));
    expect(auditTimeOf('2026-12-01T10:00:00+02:00', 'since', now)).toBe(Date.UTC(2026, 11, 1, 8));
    expect(auditTimeOf('30m', 'since', now)).toBe(now - 30 * 60_000);
    expect(auditTimeOf('24h', 'since', now)).toBe(now - DAY_MS);
    expect(auditTimeOf('7d', 'since', now)).toBe(now - 7 * DAY_MS);
    expect(auditTimeOf('2w', 'since', now)).toBe(now - 14 * DAY_MS);
    for (const bad of ['yesterday', '7', '7y', '2026-13-45', '2026-12-01T10:00', '', '1e3d']) {
      expect(() => auditTimeOf(bad, 'since', now)).toThrow(/since must be/);
    }
  });

  it('names an identified user apart from an anonymous visitor', () => {
    expect(visitorActor('user:user-17')).toEqual({ kind: 'identified_user', id: 'user:user-17' });
    expect(visitorActor('anon_1')).toEqual({ kind: 'visitor', id: 'anon_1' });
  });
});
