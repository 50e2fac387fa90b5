import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeOrderedId } from '../../src/usage/time-ordered-id.js';
import { createUsageBatch } from '../../src/usage/usage-batch.js';
import { connectClient, createConnection, parseResult } from './support.js';

/**
 * The `/mcp` usage batch as production runs it (rows wait up to `flushMs`), on both dialects: rows
 * are written without anyone asking, pending rows are written when the server closes, and a failed
 * insert is logged, never thrown, and does not stop later batches.
 */
for (const dialect of DIALECTS) {
  describe(`the /mcp usage batch (${dialect.name})`, () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    const entry = (requestId: string) => ({
      accountId: server!.accountId,
      connectionId: null,
      transport: 'http_mcp' as const,
      requestId,
      tool: 'items_list',
      collection: 'notes',
      outcome: 'ok',
      durationMs: 1,
    });
    const requestIds = async () =>
      (await server!.store.db.selectFrom('usage').select('request_id').orderBy('request_id').execute()).map(
        (row) => row.request_id,
      );

    it('writes a waiting row by itself, within its delay', async () => {
      server = await startTestServer({ dialect });
      const batch = createUsageBatch(server.store.db, server.clock, server.app.log, 20);
      batch.record(entry('req-timer-1'));
      batch.record(entry('req-timer-2'));
      await vi.waitFor(async () => expect(await requestIds()).toEqual(['req-timer-1', 'req-timer-2']), {
        timeout: 10_000,
      });
    });

    it('writes a batch of any size whole (85 rows: statements of 64, 16, 4 and 1 in one transaction)', async () => {
      server = await startTestServer({ dialect });
      const batch = createUsageBatch(server.store.db, server.clock, server.app.log, 60_000);
      const ids = Array.from({ length: 85 }, (_, index) => `req-many-${String(index).padStart(3, '0')}`);
      for (const id of ids) batch.record(entry(id));
      await batch.flush();
      expect(await requestIds()).toEqual(ids);
      const rows = await server.store.db.selectFrom('usage').selectAll().execute();
      expect(new Set(rows.map((row) => row.id)).size).toBe(85);
      expect(rows.every((row) => row.tool === 'items_list' && row.outcome === 'ok')).toBe(true);
    });

    it('logs a failed insert, never throws it, and writes the next batch', async () => {
      server = await startTestServer({ dialect });
      const errors: unknown[] = [];
      const log = { ...server.app.log, error: (details: unknown) => errors.push(details) };
      const batch = createUsageBatch(server.store.db, server.clock, log as typeof server.app.log, 60_000);
      await sql`alter table usage rename to usage_gone`.execute(server.store.db);
      batch.record(entry('req-lost-1'));
      await expect(batch.flush()).resolves.toBeUndefined();
      expect(errors).toHaveLength(1);
      await sql`alter table usage_gone rename to usage`.execute(server.store.db);
      batch.record(entry('req-after-1'));
      await batch.flush();
      expect(await requestIds()).toEqual(['req-after-1']);
    });

    it('writes pending rows when the server closes', async () => {
      server = await startTestServer({ dialect, app: { usageFlushMs: 60_000 } });
      const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
      const client = await connectClient(server, connection.token);
      expect(
        parseResult(await client.callTool({ name: 'items_list', arguments: { collection: 'notes' } }))
          .isError,
      ).toBe(false);
      await client.close();
      // The row waits for its minute; closing the app writes it (the store is still open here).
      await server.app.close();
      const rows = await server.store.db
        .selectFrom('usage')
        .selectAll()
        .where('connection_id', '=', connection.id)
        .execute();
      expect(rows.map((row) => [row.tool, row.outcome])).toEqual([['items_list', 'ok']]);
    });
  });
}

describe('usage row ids', () => {
  it('are RFC 9562 version-7 UUIDs that sort by time, and never repeat', () => {
    const ids = [0, 1, 2, 1_795_000_000_000, 1_795_000_000_001].map((at) => timeOrderedId(at));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    const same = Array.from({ length: 1_000 }, () => timeOrderedId(1_795_000_000_000));
    expect(new Set(same).size).toBe(1_000);
  });
});
