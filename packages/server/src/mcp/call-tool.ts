import { DioscError, toolErrorResult, toolResult } from '@diosc/protocol';
import { isFunctionName, isValidOutput } from '@diosc/protocol/validators';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallSignal } from '../account/caller-context.js';
import { recordCall } from '../calls/bookkeeping.js';
import type { CallerSpec } from '../calls/caller-spec.js';
import { type CallDeps, runCall } from '../calls/run-call.js';
import type { Telemetry } from '../observability/telemetry.js';
import type { Tracing } from '../observability/tracing.js';
import type { McpPrincipal } from './guard.js';

export type ToolCallOutcome =
  | { kind: 'result'; result: CallToolResult }
  /** Not a tool of this connection's list: answered as a JSON-RPC error, not a tool result. */
  | { kind: 'unknown_tool' };

export type McpCallDeps = CallDeps & {
  telemetry: Pick<Telemetry, 'mcpCall'>;
  tracing: Pick<Tracing, 'mcpCall'>;
};

/**
 * One `tools/call`, in its span, counted by function and result code (metrics and spans both see
 * the catalog name or `unknown`, and the code — never the arguments).
 */
export async function callTool(
  deps: McpCallDeps,
  principal: McpPrincipal,
  name: string,
  args: Record<string, unknown>,
  signal: CallSignal,
): Promise<ToolCallOutcome> {
  const { outcome, code } = await deps.tracing.mcpCall(
    name,
    () => dispatch(deps, principal, name, args, signal),
    (answered) => answered.code,
  );
  deps.telemetry.mcpCall(name, code);
  return outcome;
}

/**
 * One `tools/call` on behalf of a connection, through the one call path (`runCall`): the caller is
 * the connection with the grant read on this request; the result or refusal comes back as an MCP
 * tool result. A write cancelled after dispatch is `uncertain` (see `runCall`).
 */
async function dispatch(
  deps: CallDeps,
  principal: McpPrincipal,
  name: string,
  args: Record<string, unknown>,
  signal: CallSignal,
): Promise<{ outcome: ToolCallOutcome; code: string }> {
  const caller: CallerSpec = {
    channel: 'http_mcp',
    accountId: principal.accountId,
    connection: {
      id: principal.connectionId,
      grant: principal.grant.entries,
      coreGrant: principal.grant.grant,
      lastUsedAt: principal.lastUsedAt,
    },
    signal,
    dataVersion: principal.dataVersion,
  };
  if (!principal.grant.exposed.includes(name)) {
    // A catalog tool outside the grant is as unknown to this client as a made-up name; it is
    // recorded all the same, and never reaches the core.
    const outcome = isFunctionName(name) ? 'not_granted' : 'unknown_tool';
    await recordCall(deps, { caller, name, input: args, outcome, durationMs: 0 });
    return { outcome: { kind: 'unknown_tool' }, code: outcome };
  }
  try {
    const answer = await runCall(deps, { name, input: args, caller });
    if (!isValidOutput(answer.name, answer.result)) {
      throw new Error(`The result of ${name} does not match its output schema.`);
    }
    return { outcome: { kind: 'result', result: toolResult(answer.result) }, code: 'ok' };
  } catch (error) {
    const wire = DioscError.isInstance(error) ? error.toWire() : new DioscError('internal').toWire();
    if (wire.code === 'internal') deps.log.error({ err: error, tool: name }, 'tool call failed');
    return { outcome: { kind: 'result', result: toolErrorResult(wire) }, code: wire.code };
  }
}
