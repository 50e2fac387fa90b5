import { OPERATIONS } from './operations.js';
import type { FunctionName } from './schemas.js';
import type { MutatingFunction, ValidCall } from './types.js';

/**
 * The functions that change data: those whose catalog hints say they are not read-only. The one
 * statement of the set — the server's review gate, `uncertain` after a cancelled dispatch, the
 * adapter's review and the portal's toasts all ask this, compiled in from the catalog (never from
 * hints a server sends at run time).
 */
export const MUTATING_FUNCTIONS: readonly MutatingFunction[] = Object.freeze(
  OPERATIONS.filter((operation) => !operation.hints.readOnly).map(
    (operation) => operation.name as MutatingFunction,
  ),
);

export function isMutatingFunction(name: string): name is MutatingFunction {
  return (MUTATING_FUNCTIONS as readonly string[]).includes(name);
}

/** Narrows a validated call to a write or delete. */
export function isMutatingCall(call: ValidCall<FunctionName>): call is ValidCall<MutatingFunction> {
  return isMutatingFunction(call.name);
}
