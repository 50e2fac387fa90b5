import { DioscError, type FunctionName, type OperationInputs, type OperationOutputs } from '@diosc/protocol';
import { validateInput } from '@diosc/protocol/validators';
import { type Clock, systemClock } from '../clock.js';
import type { Store } from '../store/dialect.js';
import { createAdmission } from './admission.js';
import { createCallRate } from './call-rate.js';
import type { CallerContext } from './caller.js';
import { authorizeCollection, type CollectionRecord } from './collections.js';
import type { OperationContext } from './context.js';
import { type AccountLimits, DEFAULT_LIMITS } from './limits.js';
import { collectionsList } from './operations/collections-list.js';
import { itemDelete } from './operations/item-delete.js';
import { itemRead } from './operations/item-read.js';
import { itemWrite } from './operations/item-write.js';
import { itemsList } from './operations/items-list.js';
import { createReceipts } from './receipts.js';

export interface CoreResult<N extends FunctionName = FunctionName> {
  name: N;
  result: OperationOutputs[N];
  /** True when a write's request ID was seen before and its stored result was returned unexecuted. */
  replayed: boolean;
}

export interface AccountCoreOptions {
  store: Store;
  clock?: Clock;
  limits?: Partial<AccountLimits>;
}

/**
 * The account core: the one implementation of the five operations that every transport calls.
 * Order of checks: rate → input → authority (grant, ownership, kind) → admission → cancellation →
 * the operation (writes: receipt claim, then mutation + receipt completion in one transaction).
 * Authority comes before admission so a refusal on who-may-do-what never depends on load.
 */
export function createAccountCore(options: AccountCoreOptions) {
  const clock = options.clock ?? systemClock;
  const limits: AccountLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const ctx: OperationContext = {
    db: options.store.db,
    clock,
    limits,
    receipts: createReceipts(options.store.db, clock, limits.inFlightLeaseMs),
  };
  const callRate = createCallRate(limits.callsPerMinutePerCaller, clock);
  const admission = createAdmission(limits.maxConcurrentPerAccount);

  /**
   * `input` has passed `validateInput(name, …)`; each branch narrows it to its operation's type.
   * `collection` is the authorized target of a per-collection function (absent for collections_list).
   */
  async function dispatch(
    name: FunctionName,
    input: unknown,
    caller: CallerContext,
    collection: CollectionRecord | undefined,
  ) {
    const args = input as OperationInputs[typeof name];
    if (name === 'collections_list') {
      return {
        result: await collectionsList(ctx, args as OperationInputs['collections_list'], caller),
        replayed: false,
      };
    }
    const target = collection!;
    switch (name) {
      case 'items_list':
        return {
          result: await itemsList(ctx, args as OperationInputs['items_list'], caller),
          replayed: false,
        };
      case 'item_read':
        return { result: await itemRead(ctx, args as OperationInputs['item_read'], caller), replayed: false };
      case 'item_write':
        return itemWrite(ctx, args as OperationInputs['item_write'], caller, target);
      case 'item_delete':
        return itemDelete(ctx, args as OperationInputs['item_delete'], caller);
    }
  }

  return {
    limits,
    clock,
    receipts: ctx.receipts,
    admission,
    /**
     * Runs one operation for one caller. Throws a `DioscError` with a stable code on every refusal;
     * a refusal changes nothing.
     */
    async execute<N extends FunctionName>(
      name: N | string,
      input: unknown,
      caller: CallerContext,
    ): Promise<CoreResult<N>> {
      callRate.take(caller.actor);
      const valid = validateInput(name, input);
      const fn = name as FunctionName;
      const collection =
        fn === 'collections_list'
          ? undefined
          : await authorizeCollection(ctx.db, caller, (valid as { collection: string }).collection, fn);
      const release = admission.enter(caller.accountId);
      try {
        if (caller.signal?.aborted) throw new DioscError('cancelled');
        const outcome = await dispatch(fn, input, caller, collection);
        return { name: name as N, result: outcome.result as OperationOutputs[N], replayed: outcome.replayed };
      } finally {
        release();
      }
    },
  };
}

export type AccountCore = ReturnType<typeof createAccountCore>;
