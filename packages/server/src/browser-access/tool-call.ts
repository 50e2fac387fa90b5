import { DioscError, type FunctionName } from '@diosc/protocol';
import { isFunctionName } from '@diosc/protocol/validators';
import { assertGrantShape, exposedFunctions, type GrantEntry, isGrantEntries } from '../connections/grant.js';
import { bodyObject } from '../owner/body.js';
import type { BrowserAccess } from './access.js';

export interface ToolCall {
  tool: FunctionName;
  input: unknown;
  generation: unknown;
  body: Record<string, unknown>;
}

/** Reads `{ tool, input, generation, permissions? }` (plus `extra` fields); other fields are refused. */
export function readToolCall(raw: unknown, extra: readonly string[] = []): ToolCall {
  const body = bodyObject(raw, ['tool', 'input', 'generation', 'permissions', ...extra]);
  if (typeof body.tool !== 'string') throw new DioscError('invalid_input', '"tool" must be a tool name.');
  if (!isFunctionName(body.tool)) {
    throw new DioscError('unknown_tool', `There is no tool named "${body.tool.slice(0, 128)}".`);
  }
  if (typeof body.generation !== 'number') {
    throw new DioscError(
      'invalid_input',
      '"generation" must be the generation the tools were registered from.',
    );
  }
  return {
    tool: body.tool,
    input: body.input === undefined ? {} : body.input,
    generation: body.generation,
    body,
  };
}

/**
 * A caller-supplied permission list never establishes authority: within the selection it is ignored,
 * naming anything more it is refused, and the call runs on the stored selection either way.
 */
export function assertNoWidening(permissions: unknown, access: BrowserAccess): void {
  if (permissions === undefined) return;
  assertGrantShape(permissions, 'permissions');
  if (!isGrantEntries(permissions)) {
    throw new DioscError('invalid_input', '"permissions" is not a list of { collection, functions }.');
  }
  const allowed = new Map(access.selection.map((entry) => [entry.collection, entry.functions]));
  for (const entry of permissions as GrantEntry[]) {
    const functions = allowed.get(entry.collection);
    if (!functions || entry.functions.some((fn) => !functions.includes(fn))) {
      throw new DioscError(
        'not_granted',
        'A permission list in the request cannot widen the selection this session enabled.',
      );
    }
  }
}

/** The tool must be one this session's selection exposes at all. */
export function assertExposed(tool: FunctionName, access: BrowserAccess): void {
  if (!exposedFunctions(access.selection).includes(tool)) {
    throw new DioscError('not_granted', `${tool} is not among this session's browser tools.`);
  }
}
