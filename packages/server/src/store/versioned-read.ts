import type { Compilable, Kysely } from 'kysely';
import type { Store } from './dialect.js';
import { prepareRead } from './prepared-read.js';
import type { Database } from './schema.js';

/** How many distinct argument lists one versioned read keeps before it starts over. */
const MAX_ENTRIES = 1024;

/**
 * A `prepareRead` whose answers are reused until the next commit to the store. On every call it
 * reads the store's `dataVersion` (SQLite's change counter: one pragma, no table) and runs the
 * query again as soon as anything at all was committed since — so what a call sees is never older
 * than the last commit before it, exactly as if it had read the rows itself. A revoked token or a
 * removed collection shows on the very next call, whichever connection or process committed it.
 * Where the store has no counter (PostgreSQL, in-memory SQLite) every call reads.
 *
 * For the small lookups every call repeats (a bearer token's connection, a collection record);
 * never for an operation's own work. The rows are shared between callers: read-only.
 *
 * @example
 * const collection = prepareVersionedRead(store, (db, accountId: string, id: string) =>
 *   db.selectFrom('collections').select(['id', 'kind']).where('account_id', '=', accountId).where('id', '=', id));
 */
export function prepareVersionedRead<A extends (string | number)[], R>(
  store: Pick<Store, 'db' | 'read' | 'dataVersion'>,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (...args: A) => Promise<readonly Readonly<R>[]> {
  const read = prepareRead(store, build);
  const { dataVersion } = store;
  if (!dataVersion) return read;
  let version: number | undefined;
  const answers = new Map<string, Promise<R[]>>();
  return (...args: A) => {
    // The version is read before the rows: rows read after it are at least that new.
    const now = dataVersion();
    if (now !== version || answers.size >= MAX_ENTRIES) {
      answers.clear();
      version = now;
    }
    const key = JSON.stringify(args);
    let answer = answers.get(key);
    if (!answer) {
      answer = read(...args);
      answers.set(key, answer);
      // A failed read is not kept; a newer answer under the same key (after a commit) is left alone.
      const failed = answer;
      failed.catch(() => {
        if (answers.get(key) === failed) answers.delete(key);
      });
    }
    return answer;
  };
}
