import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from '@diosc/server/testing';
import { sql } from 'kysely';

/**
 * Everything the store holds, to search for a secret that must not be there. SQLite: the database
 * file and its WAL byte for byte (deleted pages included). PostgreSQL: every row of every table of
 * the test database as text (the server's files are not the test's to read).
 */
export async function storedBytes(server: TestServer): Promise<Buffer> {
  if (server.store.dialect === 'sqlite') {
    return Buffer.concat(
      ['diosc.sqlite', 'diosc.sqlite-wal'].map((name) => {
        try {
          return readFileSync(join(server.dir, name));
        } catch {
          return Buffer.alloc(0);
        }
      }),
    );
  }
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(server.store.db);
  const dumps: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(
      server.store.db,
    );
    dumps.push(...rows.rows.map((row) => row.row));
  }
  return Buffer.from(dumps.join('\n'));
}
