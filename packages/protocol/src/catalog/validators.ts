import { Ajv, type ErrorObject } from 'ajv';
import { DioscError } from '../errors/diosc-error.js';
import { lazyValidators } from '../schema/lazy-validators.js';
import { OPERATIONS } from './operations.js';
import type { FunctionName } from './schemas.js';
import type { OperationInputs, OperationOutputs, ValidCall } from './types.js';

/**
 * Rules one JSON Schema cannot state without top-level combinators, which several model providers
 * refuse in a tool's input schema. They run after the schema and fail the same way.
 */
const refinements: Partial<Record<FunctionName, (input: Record<string, unknown>) => string | undefined>> = {
  item_write(input) {
    if ((input.content === undefined) === (input.metadata === undefined)) {
      return 'Give exactly one of `content` or `metadata`.';
    }
    if (input.ifMatch !== undefined && input.ifNoneMatch !== undefined) {
      return 'Give at most one of `ifMatch` or `ifNoneMatch`.';
    }
    return undefined;
  },
};

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
const byName = <K extends 'inputSchema' | 'outputSchema'>(key: K) =>
  Object.fromEntries(OPERATIONS.map((operation) => [operation.name, operation[key]])) as Record<
    FunctionName,
    object
  >;
export const inputValidators = lazyValidators(ajv, byName('inputSchema'));
export const outputValidators = lazyValidators(ajv, byName('outputSchema'));
const NAMES: ReadonlySet<string> = new Set(OPERATIONS.map((operation) => operation.name));

function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'The input does not match the tool schema.';
  const where = first.instancePath === '' ? 'input' : `input${first.instancePath.replaceAll('/', '.')}`;
  const extra =
    first.keyword === 'additionalProperties'
      ? ` (${String((first.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `${where} ${first.message ?? 'is invalid'}${extra}.`;
}

export function isFunctionName(name: string): name is FunctionName {
  return NAMES.has(name);
}

/**
 * Validates a tool input against the catalog. Throws `unknown_tool` or `invalid_input`; never
 * mutates the input (no defaults are filled in).
 */
export function validateInput<N extends FunctionName>(name: N | string, input: unknown): OperationInputs[N] {
  if (!isFunctionName(name))
    throw new DioscError('unknown_tool', `There is no tool named "${String(name).slice(0, 128)}".`);
  const validate = inputValidators.get(name);
  if (!validate(input)) throw new DioscError('invalid_input', describe(validate.errors));
  const problem = refinements[name as FunctionName]?.(input as Record<string, unknown>);
  if (problem) throw new DioscError('invalid_input', problem);
  return input as OperationInputs[N];
}

/**
 * `validateInput` for a call: the name and the validated input together, typed as one of the
 * catalog's calls, so a dispatcher can index its operations by the name without casts.
 */
export function validateCall<N extends FunctionName>(name: N | string, input: unknown): ValidCall<N> {
  return { name, input: validateInput<N>(name, input) } as ValidCall<N>;
}

/** True when an operation result matches its output schema (checked in tests and at the MCP seam). */
export function isValidOutput<N extends FunctionName>(
  name: N,
  output: unknown,
): output is OperationOutputs[N] {
  return isFunctionName(name) && outputValidators.get(name)(output) === true;
}
