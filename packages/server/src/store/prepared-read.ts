import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Store } from './dialect.js';
import type { Database } from './schema.js';

const PLACEHOLDER = '\u0000diosc-precompiled-';

type Source = { kind: 'argument'; index: number } | { kind: 'constant'; value: unknown };

/**
 * A query built and compiled once, then filled with new parameter values on every use. For the few
 * statements every call runs: Kysely's builder and compiler cost more than running such a query.
 * `build` receives placeholders for its arguments and must use each as a plain value (a comparison
 * operand, a limit, an inserted value), never in a list or as an identifier.
 */
export function precompile<A extends (string | number | null)[], R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (...args: A) => CompiledQuery<R> {
  const arity = build.length - 1;
  const placeholders = Array.from({ length: arity }, (_, index) => `${PLACEHOLDER}${index}`);
  const template: CompiledQuery<R> = build(db, ...(placeholders as A)).compile();
  // Where each compiled parameter comes from: one of the arguments, or a constant of the query.
  const sources = template.parameters.map(
    (value): Source =>
      typeof value === 'string' && value.startsWith(PLACEHOLDER)
        ? { kind: 'argument', index: Number(value.slice(PLACEHOLDER.length)) }
        : { kind: 'constant', value },
  );
  if (
    new Set(sources.flatMap((source) => (source.kind === 'argument' ? [source.index] : []))).size !== arity
  ) {
    throw new Error('precompile: every argument must appear in the query as a plain value.');
  }
  return (...args: A) => ({
    ...template,
    parameters: sources.map((source) => (source.kind === 'argument' ? args[source.index] : source.value)),
  });
}

/**
 * A precompiled read run through `store.read` (committed data, outside any transaction).
 *
 * @example
 * const emailOf = prepareRead(store, (db, id: string) => db.selectFrom('accounts').select('email').where('id', '=', id));
 * const [row] = await emailOf('a1');
 */
export function prepareRead<A extends (string | number)[], R>(
  store: Pick<Store, 'db' | 'read'>,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  const compiled = precompile(store.db, build);
  return (...args: A) => store.read(compiled(...args));
}
