import { join } from 'node:path';
import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/dialect.js';
import { migrateToLatest } from '../../src/store/migrations.js';

describe.each(DIALECTS)('store ($name)', (dialect) => {
  let test: TestStore | undefined;
  const extra: Store[] = [];
  afterEach(async () => {
    for (const store of extra.splice(0)) await store.close();
    await test?.close();
    test = undefined;
  });

  it('opens the dialect its configuration names and migrates to the latest schema', async () => {
    test = await openTestStore(dialect);
    expect(test.store.dialect).toBe(dialect.name);
    const tables = [
      'accounts',
      'collections',
      'items',
      'receipts',
      'sessions',
      'app_connections',
      'usage',
      'review_receipts',
    ];
    for (const table of tables) {
      const rows = await sql`select count(*) as n from ${sql.table(table)}`.execute(test.store.db);
      expect(rows.rows).toHaveLength(1);
    }
  });

  it('reads epoch-millisecond BIGINT columns as numbers, without changing pg for the rest of the process', async () => {
    test = await openTestStore(dialect);
    const owner = await test.store.db.selectFrom('accounts').select('created_at').executeTakeFirstOrThrow();
    expect(owner.created_at).toBe(test.clock.now());
    // The store's parsers are its pool's own: pg's process-wide INT8 parser still yields strings.
    expect(pg.types.getTypeParser(pg.types.builtins.INT8, 'text')('9007199254740993')).toBe(
      '9007199254740993',
    );
  });

  it('migrations are idempotent: reopening and re-running them changes nothing', async () => {
    test = await openTestStore(dialect);
    const before = await test.store.db.selectFrom('items').selectAll().orderBy('id').execute();
    const migrations = () => sql<{ name: string }>`select name from kysely_migration order by name`;
    const appliedBefore = (await migrations().execute(test.store.db)).rows.map((r) => r.name);
    expect(appliedBefore).toEqual([
      '0001_account_core',
      '0002_access',
      '0003_hub',
      '0004_files',
      '0005_collection_sources',
      '0006_rate_windows',
      '0007_hub_model_usage',
      '0008_audit_records',
    ]);
    await migrateToLatest(test.store.db as never);
    const again = await openStore({
      sqlitePath: join(test.dir, 'diosc.sqlite'),
      databaseUrl: test.config.databaseUrl,
    });
    extra.push(again);
    expect(await again.db.selectFrom('items').selectAll().orderBy('id').execute()).toEqual(before);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      again.db,
    );
    expect(applied.rows.map((r) => r.name)).toEqual([
      '0001_account_core',
      '0002_access',
      '0003_hub',
      '0004_files',
      '0005_collection_sources',
      '0006_rate_windows',
      '0007_hub_model_usage',
      '0008_audit_records',
    ]);
  });

  it('reads integers, epoch-millisecond BIGINTs, COUNT and SUM back as JS numbers', async () => {
    test = await openTestStore(dialect);
    const item = await test.store.db.selectFrom('items').selectAll().executeTakeFirstOrThrow();
    expect(typeof item.created_at).toBe('number');
    expect(typeof item.updated_at).toBe('number');
    expect(typeof item.version).toBe('number');
    expect(typeof item.size_bytes).toBe('number');
    expect(item.created_at).toBe(test.clock.now());
    const big = 4_102_444_800_000; // 2100-01-01: past 2^32, inside Number's safe range.
    await test.store.db.updateTable('items').set({ updated_at: big }).where('id', '=', item.id).execute();
    const back = await test.store.db
      .selectFrom('items')
      .select('updated_at')
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(back.updated_at).toBe(big);
    const totals = await test.store.db
      .selectFrom('items')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('size_bytes').as('bytes'),
      ])
      .executeTakeFirstOrThrow();
    // The core converts with Number(); whatever the driver returns must convert exactly.
    expect(Number(totals.n)).toBe(12);
    expect(Number.isInteger(Number(totals.bytes))).toBe(true);
    expect(Number(totals.bytes)).toBeGreaterThan(0);
  });

  it('reports ON CONFLICT DO NOTHING as zero inserted rows and a real insert as one', async () => {
    test = await openTestStore(dialect);
    const row = {
      actor: 'a',
      request_id: 'r',
      account_id: test.accountId,
      function_name: 'item_write',
      input_digest: 'd',
      status: 'in_flight' as const,
      result: null,
      lease_expires_at: 1,
      created_at: 1,
      completed_at: null,
    };
    const insert = () =>
      test!.store.db
        .insertInto('receipts')
        .values(row)
        .onConflict((c) => c.columns(['actor', 'request_id']).doNothing())
        .executeTakeFirst();
    expect(Number((await insert()).numInsertedOrUpdatedRows)).toBe(1);
    expect(Number((await insert()).numInsertedOrUpdatedRows)).toBe(0);
    const rows = await test.store.db.selectFrom('receipts').selectAll().execute();
    expect(rows).toEqual([row]);
  });

  it('enforces foreign keys and cascades an account delete to its collections and items', async () => {
    test = await openTestStore(dialect);
    await expect(
      test.store.db
        .insertInto('items')
        .values({
          account_id: test.accountId,
          collection_id: 'no-such-collection',
          id: 'x',
          title: 'x',
          content_type: 'text/plain',
          content: 'x',
          metadata: null,
          version: 1,
          size_bytes: 1,
          created_at: 1,
          updated_at: 1,
        })
        .execute(),
    ).rejects.toThrow();
    await test.store.db.deleteFrom('accounts').where('id', '=', test.accountId).execute();
    expect(await test.store.db.selectFrom('collections').selectAll().execute()).toEqual([]);
    expect(await test.store.db.selectFrom('items').selectAll().execute()).toEqual([]);
  });

  it('rolls a failed transaction back completely', async () => {
    test = await openTestStore(dialect);
    const before = await test.store.db.selectFrom('items').selectAll().orderBy('id').execute();
    await expect(
      test.store.db.transaction().execute(async (trx) => {
        await trx.updateTable('items').set({ title: 'changed' }).execute();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await test.store.db.selectFrom('items').selectAll().orderBy('id').execute()).toEqual(before);
  });
});

describe('SQLite file store', () => {
  let test: TestStore | undefined;
  afterEach(async () => {
    await test?.close();
  });

  it('runs in WAL mode with foreign keys on, in a file under the data directory', async () => {
    test = await openTestStore({ name: 'sqlite' });
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(test.store.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(test.store.db);
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(test.dir, 'diosc.sqlite'))).toBe(true);
  });
});
