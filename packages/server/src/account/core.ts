import {
  DioscError,
  type FunctionName,
  type GrantEntry,
  isMutatingCall,
  type MutatingFunction,
  type OperationOutputs,
  type ReviewEffects,
} from '@diosc/protocol';
import { validateCall } from '@diosc/protocol/validators';
import { type Clock, systemClock } from '../clock.js';
import { createPerMinuteLimit } from '../limits/per-minute-limit.js';
import type { Store } from '../store/dialect.js';
import { createAdmission } from './admission.js';
import type { CallHold } from './call-hold.js';
import type { CallerContext } from './caller-context.js';
import { disconnectedCollections, disconnectSource } from './collections.js';
import type { OperationContext } from './context.js';
import { createHotReads } from './hot-reads.js';
import type { InsideWrite } from './inside-write.js';
import { type AccountLimits, DEFAULT_LIMITS } from './limits.js';
import { authorizeCall, createOperationTable } from './operation-table.js';
import { previewChange } from './preview.js';
import { createReceipts } from './receipts.js';
import { storedReplay } from './replay.js';

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
  /** Test seam: awaited after authority and admission, before the work (see `CallHold`). */
  hold?: CallHold;
  /** Test seam: awaited inside each write's transaction, before it commits (see `InsideWrite`). */
  insideWrite?: InsideWrite;
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
    insideWrite: options.insideWrite,
    reads: createHotReads(options.store),
  };
  const callRate = createPerMinuteLimit(limits.callsPerMinutePerCaller, clock);
  const admission = createAdmission(limits.maxConcurrentPerAccount);
  const operations = createOperationTable(ctx);

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
      const call = validateCall<N>(name, input);
      const work = await authorizeCall(operations, call, caller);
      const release = admission.enter(caller.accountId);
      try {
        if (options.hold) await options.hold({ name: call.name, caller });
        if (caller.signal?.aborted) throw new DioscError('cancelled');
        const { result, replayed } = await work();
        return { name: call.name, result, replayed };
      } finally {
        release();
      }
    },

    /**
     * What a write or delete would do, for review, without doing it: input, authority and kind
     * rules as `execute` checks them, then the current item and the change. Takes no call-rate or
     * admission slot (it is one indexed read) and changes nothing, not even a receipt.
     *
     * @example
     * const effects = await core.preview('item_delete', { collection: 'notes', item: 'x', requestId, ifMatch: '3' }, caller);
     * effects.action === 'delete' && effects.before?.version === '3';
     */
    async preview(
      name: MutatingFunction | string,
      input: unknown,
      caller: CallerContext,
    ): Promise<ReviewEffects> {
      const call = validateCall(name, input);
      if (!isMutatingCall(call)) {
        throw new DioscError('invalid_input', `${call.name} is a read; there is no change to preview.`);
      }
      return previewChange(ctx, call, caller);
    },

    /**
     * The stored result when this caller already committed this exact write under its request ID
     * (`replayed: true`), else null — without running anything (see `storedReplay`). A review asks
     * first, so a replay is reported as already done instead of shown as a change to approve.
     */
    async replayOf(
      name: MutatingFunction | string,
      input: unknown,
      caller: CallerContext,
    ): Promise<CoreResult | null> {
      const call = validateCall(name, input);
      if (!isMutatingCall(call))
        throw new DioscError('invalid_input', `${call.name} is a read; nothing is replayed.`);
      const stored = await storedReplay(ctx, call, caller);
      return stored && ({ name: call.name, result: stored.result, replayed: true } as CoreResult);
    },

    /**
     * The owner disconnects the provider source of an external collection. From then on every
     * call naming it answers `source_revoked` on every transport — reads already in flight too —
     * and nothing else changes: its items, and every grant and selection naming it, stay. There is
     * no reconnect. Idempotent: `changed` is false when it was already disconnected.
     */
    async disconnectSource(accountId: string, collectionId: string) {
      const done = await disconnectSource(ctx.db, accountId, collectionId, clock.now());
      return { ...done, disconnectedAt: new Date(done.disconnectedAt).toISOString() };
    },

    /**
     * The entries of a grant whose collections can still be called: what browser tools are offered
     * for. (The stored grant keeps the others, so a call naming them answers `source_revoked`.)
     */
    async connectedEntries(accountId: string, entries: readonly GrantEntry[]): Promise<GrantEntry[]> {
      const disconnected = await disconnectedCollections(ctx.db, accountId);
      return entries.filter((entry) => !disconnected.has(entry.collection));
    },
  };
}

export type AccountCore = ReturnType<typeof createAccountCore>;
