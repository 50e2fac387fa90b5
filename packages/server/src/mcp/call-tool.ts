import { DioscError, FUNCTION_NAMES, type WireError } from '@diosc/protocol';
import { isValidOutput } from '@diosc/protocol/validators';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CallerContext } from '../account/caller.js';
import { exposedFunctions, toGrant } from '../connections/grant.js';
import type { DioscContext } from '../context.js';
import type { UsageBatch } from '../usage/usage-batch.js';
import { collectionOf, requestIdOf, toolOf } from '../usage/usage-log.js';
import type { McpPrincipal } from './guard.js';

/** `last_used_at` is a coarse "recently active" marker; writing it more often buys nothing. */
const TOUCH_INTERVAL_MS = 60_000;
const MUTATING = new Set(['item_write', 'item_delete']);

export type ToolCallOutcome =
  | { kind: 'result'; result: CallToolResult }
  /** Not a tool of this connection's list: answered as a JSON-RPC error, not a tool result. */
  | { kind: 'unknown_tool' };

/** A result the client can read both ways: structured, and the same JSON as text. */
function okResult(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: { ...value } };
}

function errorResult(error: WireError): CallToolResult {
  const body = { error };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

/**
 * One `tools/call` on behalf of a connection: the account core with a caller context built from
 * the grant read on this request, the result or refusal as an MCP tool result, and a usage row.
 *
 * Cancellation: the core stops work that has not been dispatched (`cancelled`). A write whose
 * cancellation arrived after dispatch may have committed; it is reported as `uncertain` with its
 * request ID, and the receipt of (connection, request ID) says which — repeating the call with the
 * same request ID replays a committed result. Nothing here retries under a new request ID.
 */
export async function callTool(
  diosc: DioscContext,
  usage: UsageBatch,
  log: FastifyBaseLogger,
  principal: McpPrincipal,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolCallOutcome> {
  const started = performance.now();
  const requestId = requestIdOf(args);
  const exposed = exposedFunctions(principal.grant).includes(name);
  let outcome: string;
  let answer: ToolCallOutcome;
  const known = (FUNCTION_NAMES as readonly string[]).includes(name);
  if (!exposed) {
    // A catalog tool outside the grant is as unknown to this client as a made-up name.
    outcome = known ? 'not_granted' : 'unknown_tool';
    answer = { kind: 'unknown_tool' };
  } else {
    const caller: CallerContext = {
      accountId: principal.accountId,
      actor: `connection:${principal.connectionId}`,
      via: 'http_mcp',
      connectionId: principal.connectionId,
      grant: toGrant(principal.grant),
      signal,
    };
    try {
      const { result, replayed } = await diosc.core.execute(name, args, caller);
      if (signal.aborted && MUTATING.has(name) && !replayed) {
        throw new DioscError(
          'uncertain',
          `Request "${requestId}" was cancelled after it was dispatched and may have committed. Call again with the same requestId to learn the outcome; never retry it under a new request ID.`,
          { details: { requestId } },
        );
      }
      if (!isValidOutput(name as 'items_list', result)) {
        throw new Error(`The result of ${name} does not match its output schema.`);
      }
      outcome = replayed ? 'replayed' : 'ok';
      answer = { kind: 'result', result: okResult(result) };
    } catch (error) {
      const wire = DioscError.isInstance(error) ? error.toWire() : new DioscError('internal').toWire();
      if (wire.code === 'internal') log.error({ err: error, tool: name }, 'tool call failed');
      outcome = wire.code;
      answer = { kind: 'result', result: errorResult(wire) };
    }
  }

  usage.record({
    accountId: principal.accountId,
    connectionId: principal.connectionId,
    transport: 'http_mcp',
    requestId,
    tool: toolOf(name),
    collection: collectionOf(args),
    outcome,
    durationMs: performance.now() - started,
  });
  const now = diosc.clock.now();
  if (principal.lastUsedAt === null || now - principal.lastUsedAt >= TOUCH_INTERVAL_MS) {
    // The call itself is done; a failed marker write must not turn it into a failure.
    await diosc.connections.touch(principal.connectionId).catch((error: unknown) => {
      log.error({ err: error }, 'last-used marker not written');
    });
  }
  return answer;
}
