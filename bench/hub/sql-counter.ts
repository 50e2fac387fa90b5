// Counts what the hub's SQLite connections execute, at the driver: every statement run on the
// writer or the read-only connection (Kysely's queries, the prepared hot reads that bypass Kysely,
// pragmas), and every commit — a `commit` ending a transaction, or a write run outside one (SQLite
// commits it by itself). Patched on better-sqlite3's Statement prototype, shared by every
// connection of this process, before the store opens: the hub's code is not touched. While
// recording, each statement's text is kept too (what the report lists for one round trip).
import SQLite from 'better-sqlite3';

export interface SqlCounts {
  statements: number;
  commits: number;
}

const counts: SqlCounts = { statements: 0, commits: 0 };
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;
const COMMIT = /^\s*(commit|end)\b/i;

interface CountedStatement {
  source: string;
  /** False for anything that writes, `insert … returning` included (which `reader` calls a reader). */
  readonly: boolean;
  database: { inTransaction: boolean };
}

let recording: string[] | undefined;

function count(statement: CountedStatement): void {
  recording?.push(statement.source.replace(/\s+/g, ' '));
  if (COMMIT.test(statement.source)) {
    counts.commits++;
    return;
  }
  if (TRANSACTION_CONTROL.test(statement.source)) return;
  counts.statements++;
  if (!statement.readonly && !statement.database.inTransaction) counts.commits++;
}

const probe = new SQLite(':memory:');
const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
  string,
  (this: CountedStatement, ...args: unknown[]) => unknown
>;
probe.close();
for (const method of ['run', 'get', 'all', 'iterate'] as const) {
  const original = prototype[method]!;
  prototype[method] = function (this: CountedStatement, ...args: unknown[]) {
    count(this);
    return original.apply(this, args);
  };
}

export function sqlCounts(): SqlCounts {
  return { ...counts };
}

/** Starts keeping the text of every statement run from now on. */
export function startRecording(): void {
  recording = [];
}

/** Stops keeping statements; returns those run since `startRecording`, in order. */
export function stopRecording(): string[] {
  const recorded = recording ?? [];
  recording = undefined;
  return recorded;
}
