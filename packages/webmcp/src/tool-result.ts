import { DioscError, type ErrorCode, plainText, type ToolResult, toolResult } from '@diosc/protocol';
import { TransportFailure } from './owner-request.js';

/** What an execute callback resolves with: the same bounded data `/mcp`'s `tools/call` returns. */
export type { ToolResult };
export { toolResult };

/**
 * A failure the agent can branch on: a `DioscError` whose message starts with the stable code, because
 * a browser passes on only the message text of a rejected tool call. Never HTML.
 */
export function toolFailure(code: ErrorCode, message?: string, requestId?: string): DioscError {
  const base = new DioscError(code, message);
  const text = plainText(base.message);
  const suffix = requestId ? ` (requestId ${requestId})` : '';
  return new DioscError(code, `${code}: ${text}${suffix}`, requestId ? { details: { requestId } } : {});
}

/** Any error on the way, as a tool failure with a stable code. */
export function asToolFailure(error: unknown): DioscError {
  if (DioscError.isInstance(error)) {
    if (error.message.startsWith(`${error.code}:`)) return error;
    return toolFailure(error.code, error.message);
  }
  if (TransportFailure.isInstance(error)) return toolFailure('internal', error.message);
  return toolFailure('internal', 'The tool failed unexpectedly.');
}
