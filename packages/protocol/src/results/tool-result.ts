import type { WireError } from '../errors/diosc-error.js';

/**
 * A tool result in MCP's shape, which WebMCP's execute callbacks resolve with too: the value as
 * structured content and the same JSON as text, so a client can read it either way. (A type
 * alias, not an interface, so it fits the SDK's index-signature `CallToolResult`.)
 */
export type ToolResult<T = unknown> = {
  content: { type: 'text'; text: string }[];
  structuredContent: T;
};

export function toolResult<T>(value: T): ToolResult<T> {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A refusal as a tool result (`isError`), carrying the wire error both ways. */
export function toolErrorResult(error: WireError): ToolResult<{ error: WireError }> & { isError: true } {
  return { ...toolResult({ error }), isError: true };
}
