import { isObject } from '@diosc/protocol';

/**
 * The first protocol revision of the per-request-envelope era: the date the SDK's classifier
 * (`classifyInboundRequest`) compares a version with. Pinned to it by test/mcp/era-fast-path.test.ts.
 */
export const FIRST_MODERN_REVISION = '2026-07-28';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * True when the SDK's `classifyInboundRequest` would certainly answer `legacy`: one well-formed
 * JSON-RPC request whose params carry no `_meta` (so no envelope claim), under no modern
 * `MCP-Protocol-Version` header. Every other request goes to the classifier itself. Asked first
 * because the classifier parses the body with zod three times, which was ≈ 25 µs of every `/mcp`
 * call (docs/mcp.md, Performance); a property test holds this to the classifier's own answers.
 */
export function plainlyLegacy(body: unknown, protocolVersionHeader: string | undefined): boolean {
  if (protocolVersionHeader !== undefined) {
    const version = protocolVersionHeader.replace(/^[ \t]+|[ \t]+$/g, '');
    if (!VERSION.test(version) || version >= FIRST_MODERN_REVISION) return false;
  }
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return false;
  for (const key of Object.keys(body)) if (!REQUEST_KEYS.has(key)) return false;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  return params === undefined || (isObject(params) && !Object.hasOwn(params, '_meta'));
}
