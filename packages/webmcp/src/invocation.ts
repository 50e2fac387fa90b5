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
  /** The server refused for a reason that ends this registration (401, `not_enabled`). */
  onServerRefusal(error: DioscError): void;
  report(entry: Omit<ActivityEntry, 'time'>): void;
}

/** Why a call stopped, known to the flow; mapped to a code once, at the end. */
class Stop extends Error {
  constructor(readonly failure: DioscError) {
    super(failure.message);
  }
}

/**
 * The execute callback of one tool. Reads dispatch; writes and deletes run prepare → review →
 * acknowledge → execute with the input captured at call time. A retained reference from a revoked
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
      let result: unknown;
      try {
        result = write
          ? await reviewed(call, io.signal, scope, check, () => {
              dispatched = true;
            })
          : (await scope.api.dispatch(call, io.signal)).result;
      } finally {
        io.release();
      }
      check();
      scope.report({ tool, collection, outcome: 'ok', requestId });
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

async function reviewed(
  call: ToolCall,
  io: AbortSignal,
  scope: InvocationScope,
  check: () => void,
  markDispatched: () => void,
): Promise<unknown> {
  const { receipt } = await scope.api.prepare(call, io);
  check();
  if (receipt.tool !== call.tool || canonicalJson(receipt.input) !== canonicalJson(call.input)) {
    throw new Stop(
      toolFailure('receipt_mismatch', 'The server prepared a different change than was requested.'),
    );
  }
  const decision = await untilAborted(scope.reviewer({ receipt: frozenCopy(receipt), signal: io }), io);
  check();
  if (decision !== 'accept') throw new Stop(toolFailure('declined'));
  await scope.api.acknowledge(receipt.id, receipt.digest, io);
  check();
  markDispatched();
  const { result } = await scope.api.execute({ ...call, receiptId: receipt.id }, io);
  return result;
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
  if (error.code === 'unauthenticated' || error.code === 'session_expired' || error.code === 'not_enabled') {
    scope.onServerRefusal(error);
  }
  return asToolFailure(error);
}
