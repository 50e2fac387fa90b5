import type { Compilable, Kysely } from 'kysely';
import type { Store } from './dialect.js';
import { prepareRead } from './prepared-read.js';
import type { Database } from './schema.js';

/** How many distinct argument lists one versioned read keeps before it starts over. */
const MAX_ENTRIES = 1024;

/** A versioned read (`prepareVersionedRead`). */
export interface VersionedRead<A extends (string | number)[], R> {
  (...args: A): Promise<readonly Readonly<R>[]>;
  /**
   * The same read, given the store's `dataVersion` as read at the start of this very call — never
   * one kept from an earlier call — instead of reading the counter again. Answers kept under that
   * version were read after it, so they hold every commit made before the call began; `undefined`
   * reads the counter as the plain call does. An answer read under that very version and kept
   * already comes back at once — the rows themselves, no promise and no turn of the event loop (on
   * every `/mcp` call an await costs more than the lookup); otherwise a promise.
   */
  given(version: number | undefined, ...args: A): readonly Readonly<R>[] | Promise<readonly Readonly<R>[]>;
}

/**
 * A `prepareRead` whose answers are reused until the next commit to the store. On every call it
 * reads the store's `dataVersion` (SQLite's change counter: one pragma, no table) and runs the
 * query again as soon as anything at all was committed since — so what a call sees is never older
 * than the last commit before it, exactly as if it had read the rows itself. A revoked token or a
 * removed collection shows on the very next call, whichever connection or process committed it.
 * Where the store has no counter (PostgreSQL, in-memory SQLite) every call reads.
 *
 * For the small lookups every call repeats (a bearer token's connection, a collection record);
 * never for an operation's own work. The rows are shared between callers: read-only. A call that
 * makes several of these lookups reads the counter once, at its start, and hands it to each
 * (`given`): `/mcp` reads it in its guard, before the bearer lookup, and the collection lookup of
 * the same call reuses it.
 *
 * @example
 * const collection = prepareVersionedRead(store, (db, accountId: string, id: string) =>
 *   db.selectFrom('collections').select(['id', 'kind']).where('account_id', '=', accountId).where('id', '=', id));
 */
export function prepareVersionedRead<A extends (string | number)[], R>(
  store: Pick<Store, 'db' | 'read' | 'dataVersion'>,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): VersionedRead<A, R> {
  const read = prepareRead(store, build);
  const { dataVersion } = store;
  if (!dataVersion) {
    return Object.assign(read, { given: (_version: number | undefined, ...args: A) => read(...args) });
  }
  let version: number | undefined;
  const answers = new Map<string, Promise<R[]>>();
  // The rows of the answers above that have arrived, for `given`.
  const arrived = new Map<string, R[]>();
  const lookup = (now: number, args: A, key = JSON.stringify(args)) => {
    if (now !== version || answers.size >= MAX_ENTRIES) {
      answers.clear();
      arrived.clear();
      version = now;
    }
    let answer = answers.get(key);
    if (!answer) {
      answer = read(...args);
      answers.set(key, answer);
      // A failed read is not kept; a newer answer under the same key (after a commit) is left alone.
      const pending = answer;
      pending.then(
        (rows) => {
          if (answers.get(key) === pending) arrived.set(key, rows);
        },
        () => {
          if (answers.get(key) === pending) answers.delete(key);
        },
      );
    }
    return answer;
  };
  // The version is read before the rows: rows read after it are at least that new.
  return Object.assign((...args: A) => lookup(dataVersion(), args), {
    given: (seen: number | undefined, ...args: A) => {
      const now = seen ?? dataVersion();
      const key = JSON.stringify(args);
      return (now === version && arrived.get(key)) || lookup(now, args, key);
    },
  });
}
