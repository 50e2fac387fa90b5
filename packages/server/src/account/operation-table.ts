import type {
  CollectionFunction,
  FunctionName,
  OperationInputs,
  OperationOutputs,
  ValidCall,
} from '@diosc/protocol';
import type { CallerContext } from './caller-context.js';
import { assertSourceConnected, authorizeCollection, type CollectionRecord } from './collections.js';
import type { OperationContext } from './context.js';
import { collectionsList } from './operations/collections-list.js';
import { itemDelete } from './operations/item-delete.js';
import { itemRead } from './operations/item-read.js';
import { itemWrite } from './operations/item-write.js';
import { itemsList } from './operations/items-list.js';

export interface Outcome<N extends FunctionName> {
  result: OperationOutputs[N];
  /** True when a write's request ID was seen before and its stored result was returned unexecuted. */
  replayed: boolean;
}

/** The work of one authorized call, ready to run once admitted. */
export type Work<N extends FunctionName> = () => Promise<Outcome<N>>;

/**
 * One operation: its authority check (grant, ownership, kind — run before admission, so a refusal
 * on who-may-do-what never depends on load), returning the work it authorized.
 */
export type Operation<N extends FunctionName> = (
  input: OperationInputs[N],
  caller: CallerContext,
) => Promise<Work<N>>;

/** Every catalog function's operation: a new function is a type error until it is here. */
export type OperationTable = { [N in FunctionName]: Operation<N> };

export function createOperationTable(ctx: OperationContext): OperationTable {
  const authorize = (caller: CallerContext, collection: string, fn: CollectionFunction) =>
    authorizeCollection(ctx.reads, caller, collection, fn);
  const read =
    <R>(run: () => Promise<R>) =>
    async () => ({ result: await run(), replayed: false });
  /**
   * A read of one collection. An external collection's source is asked again once the read has run
   * (whatever it answered), so a read in flight when the source was disconnected answers
   * `source_revoked`, not the mirror's data or a `not_found` about it.
   */
  const readOf =
    <R>(caller: CallerContext, collection: CollectionRecord, run: () => Promise<R>) =>
    async () => {
      if (collection.kind !== 'external') return { result: await run(), replayed: false };
      const outcome = await run().then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      await assertSourceConnected(ctx.reads, caller.accountId, collection.id);
      if ('error' in outcome) throw outcome.error;
      return { result: outcome.result, replayed: false };
    };

  return {
    collections_list: async (input, caller) => read(() => collectionsList(ctx, input, caller)),
    items_list: async (input, caller) => {
      const collection = await authorize(caller, input.collection, 'items_list');
      return readOf(caller, collection, () => itemsList(ctx, input, caller));
    },
    item_read: async (input, caller) => {
      const collection = await authorize(caller, input.collection, 'item_read');
      return readOf(caller, collection, () => itemRead(ctx, input, caller));
    },
    item_write: async (input, caller) => {
      const collection = await authorize(caller, input.collection, 'item_write');
      return () => itemWrite(ctx, input, caller, collection);
    },
    item_delete: async (input, caller) => {
      await authorize(caller, input.collection, 'item_delete');
      return () => itemDelete(ctx, input, caller);
    },
  };
}

/** Authorizes a validated call through its row of the table; the name picks the row, typed. */
export function authorizeCall<N extends FunctionName>(
  table: OperationTable,
  call: ValidCall<N>,
  caller: CallerContext,
): Promise<Work<N>> {
  return table[call.name](call.input, caller);
}
