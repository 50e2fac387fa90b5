import { DioscError, isMutatingFunction, requestIdOf } from '@diosc/protocol';
import type { AccountCore, CoreResult } from '../account/core.js';
import { type BookkeepingDeps, recordCall } from './bookkeeping.js';
import { type CallerSpec, callerContext } from './caller-spec.js';

/** What the call path needs of the app (`app.diosc` plus a logger has it all). */
export interface CallDeps extends BookkeepingDeps {
  core: Pick<AccountCore, 'execute'>;
}

export interface CallRequest {
  /** A catalog function name, as the caller sent it (the core refuses others with `unknown_tool`). */
  name: string;
  input: unknown;
  caller: CallerSpec;
}

/**
 * The one call path of every transport (`/mcp`, the owner API, browser access, the hub): builds the
 * caller context from who the transport authenticated, runs the account core, then records the
 * call (usage row, the connection's last-used marker) whatever the outcome. Resolves with the
 * core's result or rejects with its refusal; bookkeeping never replaces either (it logs instead).
 *
 * A write the caller gave up on after it was dispatched (`caller.signal` aborted, not a replay) may
 * have committed: it is refused `uncertain` with its request ID, and repeating the call with the
 * same request ID tells which. Nothing here retries.
 *
 * @example
 * const { result } = await runCall({ ...app.diosc, log: request.log }, {
 *   name: 'items_list',
 *   input: { collection: 'notes' },
 *   caller: { channel: 'hub', accountId, connection: { id, grant, lastUsedAt } },
 * });
 */
export async function runCall(deps: CallDeps, request: CallRequest): Promise<CoreResult> {
  const started = performance.now();
  const caller = callerContext(request.caller);
  let outcome = 'ok';
  try {
    const answer = await deps.core.execute(request.name, request.input, caller);
    if (caller.signal?.aborted && isMutatingFunction(answer.name) && !answer.replayed) {
      const requestId = requestIdOf(request.input) ?? null;
      throw new DioscError(
        'uncertain',
        `Request "${requestId}" was cancelled after it was dispatched and may have committed. Call again with the same requestId to learn the outcome; never retry it under a new request ID.`,
        { details: { requestId } },
      );
    }
    if (answer.replayed) outcome = 'replayed';
    return answer;
  } catch (error) {
    outcome = DioscError.isInstance(error) ? error.code : 'internal';
    throw error;
  } finally {
    await recordCall(deps, {
      caller: request.caller,
      name: request.name,
      input: request.input,
      outcome,
      durationMs: performance.now() - started,
    });
  }
}
