import { isErrorCode } from '@diosc/protocol';
import { isFunctionName } from '@diosc/protocol/validators';

/**
 * What a metric label or a span attribute may say of a result or an `/mcp` function: the
 * protocol's error codes and the catalog's function names, sets the code bounds. Anything else a
 * caller could make up (an unknown tool name, a provider's own error string) collapses into one
 * value, so no request can grow a series or put outside text in a span.
 */
export function boundedCode(code: string): string {
  return code === 'ok' || isErrorCode(code) ? code : 'other';
}

export function boundedFunction(name: string): string {
  return isFunctionName(name) ? name : 'unknown';
}
