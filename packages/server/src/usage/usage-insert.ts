import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

type UsageRow = Database['usage'];

const COLUMNS = [
  'id',
  'account_id',
  'connection_id',
  'transport',
  'request_id',
  'tool',
  'collection_id',
  'outcome',
  'duration_ms',
  'created_at',
] as const satisfies readonly (keyof UsageRow)[];

/** Statement sizes: a batch goes in as a few statements of these many rows (largest first). */
const CHUNKS = [64, 16, 4, 1] as const;
const MARK = '\u0000usage-insert-';

/**
 * The usage table's insert of `count` rows, compiled once: building and compiling a many-row
 * insert costs more than running it, and a fixed set of sizes keeps the number of distinct
 * statements (each one prepared and kept by the SQLite driver) at four.
 */
function compileInsert(db: Kysely<Database>, count: number): (rows: readonly UsageRow[]) => CompiledQuery {
  const marks = Array.from(
    { length: count },
    (_, row) =>
      Object.fromEntries(
        COLUMNS.map((column, index) => [column, `${MARK}${row}:${index}`]),
      ) as unknown as UsageRow,
  );
  const template = db.insertInto('usage').values(marks).compile();
  // The compiled parameters must be the rows' values, row by row, in COLUMNS order.
  const inOrder = template.parameters.every(
    (value, at) => value === `${MARK}${Math.floor(at / COLUMNS.length)}:${at % COLUMNS.length}`,
  );
  if (!inOrder || template.parameters.length !== count * COLUMNS.length) {
    throw new Error('The usage insert did not compile to row-major parameters.');
  }
  return (rows) => ({ ...template, parameters: rows.flatMap((row) => COLUMNS.map((column) => row[column])) });
}

const compiledByDb = new WeakMap<Kysely<Database>, Map<number, ReturnType<typeof compileInsert>>>();

function insertOf(db: Kysely<Database>, count: number) {
  let compiled = compiledByDb.get(db);
  if (!compiled) {
    compiled = new Map(CHUNKS.map((size) => [size, compileInsert(db, size)]));
    compiledByDb.set(db, compiled);
  }
  return compiled.get(count)!;
}

/**
 * Appends shaped rows to the usage table: the one insert every usage writer goes through. Rows go
 * in as statements of 64, 16, 4 and 1 rows; more than one statement runs in one transaction, so
 * a batch is all written or not at all (and one commit either way).
 */
export async function insertUsageRows(db: Kysely<Database>, rows: readonly UsageRow[]): Promise<void> {
  const statements: CompiledQuery[] = [];
  let at = 0;
  for (const size of CHUNKS) {
    for (; rows.length - at >= size; at += size)
      statements.push(insertOf(db, size)(rows.slice(at, at + size)));
  }
  if (statements.length === 1) await db.executeQuery(statements[0]!);
  else if (statements.length > 1) {
    await db.transaction().execute(async (trx) => {
      for (const statement of statements) await trx.executeQuery(statement);
    });
  }
}
