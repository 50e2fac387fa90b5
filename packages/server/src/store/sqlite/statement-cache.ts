import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query it runs. Preparing costs more than running a small
 * query, and our queries come from a handful of shapes, so statements are kept by SQL text
 * (bounded, oldest dropped first). Safe because the driver runs one statement at a time and
 * always consumes it fully (`all`/`run`) before the next.
 */
export function withStatementCache(database: SQLite.Database, max = 256): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
