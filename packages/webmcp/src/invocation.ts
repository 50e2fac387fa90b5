import {
  canonicalJson,
  collectionOf,
  DioscError,
  type FunctionName,
  isMutatingFunction,
  isPlainObject,
  requestIdOf,
} from '@diosc/protocol';
import type { ActivityEntry, Reviewer } from './adapter-types.js';
import { frozenCopy } from './frozen-copy.js';
import type { ToolExecuteCallback } from './model-context.js';
import type { OwnerBrowserApi, ToolCall } from './owner-api-types.js';
import { anySignal, untilAborted } from './signals.js';
import { asToolFailure, type ToolResult, toolFailure, toolResult } from './tool-result.js';

/** What one registration's callbacks share. `isLive` is asked at call time and after every await. */
export interface InvocationScope {
  api: OwnerBrowserApi;
  reviewer: Reviewer;
  generation: number;
  /** Aborts when this registration is revoked (disable, sign-out, offline, teardown, replacement). */
  revoked: AbortSignal;
  isLive(): boolean;
  /** The refusal a dead registration answers with (`not_enabled` or `session_expired`). */
  refusal(): DioscError;
  /**
   * The server refused for a reason about the registration itself: it ends it (401, `not_enabled`,
   * `feature_disabled`) or shows it out of date (`source_revoked`: the offered tools must be reloaded).
   */
  onServerRefusal(error: DioscError): void;
  report(entry: Omit<ActivityEntry, 'time'>): void;
}

/** Refusals that say something about the registration, not only about this call. */
const REGISTRATION_CODES: ReadonlySet<string> = new Set([
  'unauthenticated',
  'session_expired',
  'not_enabled',
  'feature_disabled',
  'source_revoked',
]);

/** Why a call stopped, known to the flow; mapped to a code once, at the end. */
class Stop extends Error {
  constructor(readonly failure: DioscError) {
    super(failure.message);
  }
}

/**
 * The execute callback of one tool. Reads dispatch; writes and deletes run prepare → review →
 * acknowledge → execute with the input captured at call time (a write the server reports as
 * already committed under its request ID is answered from prepare, without a review). A retained reference from a revoked
 * registration is refused before anything is sent, and a result arriving after revocation is dropped.
 */
export function createExecute(tool: FunctionName, scope: InvocationScope): ToolExecuteCallback {
  return async (rawInput, options) => {
    const signal = options?.signal ?? new AbortController().signal;
    // Only well-formed identifiers reach activity entries and error messages — never free text.
    const collection = collectionOf(rawInput);
    const requestId = requestIdOf(rawInput);
    const write = isMutatingFunction(tool);
    let dispatched = false;
    const check = () => {
      if (!scope.isLive()) {
        if (dispatched && write) {
          throw new Stop(
            toolFailure(
              'uncertain',
              'Browser tools were revoked after the change was sent; its outcome is not reported here.',
              requestId,
            ),
          );
        }
        throw new Stop(scope.refusal());
      }
      if (signal.aborted) {
        throw new Stop(
          dispatched && write ? toolFailure('uncertain', undefined, requestId) : toolFailure('cancelled'),
        );
      }
    };
    try {
      check();
      if (rawInput !== undefined && !isPlainObject(rawInput))
        throw new Stop(toolFailure('invalid_input', 'The input must be a JSON object.'));
      const call: ToolCall = { tool, input: frozenCopy(rawInput ?? {}), generation: scope.generation };
      const io = anySignal([signal, scope.revoked]);
      let answer: { result: unknown; replayed: boolean };
      try {
        answer = write
          ? await reviewed(call, io.signal, scope, check, {
              accepted: () => scope.report({ tool, collection, outcome: 'in-progress', requestId }),
              dispatched: () => {
                dispatched = true;
              },
            })
          : { result: (await scope.api.dispatch(call, io.signal)).result, replayed: false };
      } finally {
        io.release();
      }
      const { result, replayed } = answer;
      check();
      scope.report({ tool, collection, outcome: replayed ? 'replayed' : 'ok', requestId });
      return toolResult(result) satisfies ToolResult;
    } catch (error) {
      const failure = explain(error, dispatched && write, requestId, scope, check);
      const outcome =
        failure.code === 'declined' || failure.code === 'cancelled' || failure.code === 'uncertain'
          ? failure.code
          : error instanceof Stop && failure.code !== 'invalid_input'
            ? 'refused'
            : 'error';
      scope.report({ tool, collection, outcome, code: failure.code, requestId });
      throw failure;
    }
  };
}

/**
 * prepare → the owner's review → acknowledge → execute. Only the execute answer settles the call:
 * acceptance is reported as `in-progress`, never as success. No field of the input is read as a
 * decision; the reviewer's answer is the only one.
 */
async function reviewed(
  call: ToolCall,
  io: AbortSignal,
  scope: InvocationScope,
  check: () => void,
  mark: { accepted(): void; dispatched(): void },
): Promise<{ result: unknown; replayed: boolean }> {
  const prepared = await scope.api.prepare(call, io);
  check();
  // Already committed under this request ID: nothing would change, so nothing is asked.
  if (prepared.replayed) return { result: prepared.result, replayed: true };
  const { receipt } = prepared;
  if (receipt.tool !== call.tool || canonicalJson(receipt.input) !== canonicalJson(call.input)) {
    throw new Stop(
      toolFailure('receipt_mismatch', 'The server prepared a different change than was requested.'),
    );
  }
  const decision = await untilAborted(scope.reviewer({ receipt: frozenCopy(receipt), signal: io }), io);
  check();
  if (decision !== 'accept') throw new Stop(toolFailure('declined'));
  mark.accepted();
  await scope.api.acknowledge(receipt.id, receipt.digest, io);
  check();
  mark.dispatched();
  const { result, replayed } = await scope.api.execute({ ...call, receiptId: receipt.id }, io);
  return { result, replayed };
}

/**
 * One stable code for whatever stopped the call. Liveness and cancellation are asked first, so a late
 * answer (even a refusal) never reaches an agent of a revoked registration; a dispatched write that
 * did not answer is uncertain, never retried.
 */
function explain(
  error: unknown,
  writeDispatched: boolean,
  requestId: string | undefined,
  scope: InvocationScope,
  check: () => void,
): DioscError {
  if (error instanceof Stop) return error.failure;
  try {
    check();
  } catch (stop) {
    if (stop instanceof Stop) return stop.failure;
  }
  if (!DioscError.isInstance(error)) {
    return writeDispatched ? toolFailure('uncertain', undefined, requestId) : asToolFailure(error);
  }
  if (REGISTRATION_CODES.has(error.code)) scope.onServerRefusal(error);
  return asToolFailure(error);
}
