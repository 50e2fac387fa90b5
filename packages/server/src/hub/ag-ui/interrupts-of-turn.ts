import type { Interrupt } from '@ag-ui/core';
import type { HubServices } from '../hub-services.js';
import type { ToolCallRecord } from '../store/tool-calls.js';
import type { TurnRecord } from '../store/turns.js';
import { consensusSummary } from '../tool-calls/consensus-request.js';
import type { ToolCallFace } from './tool-call-names.js';

/** `Interrupt.reason` of a client tool call and of an approval request. */
export const CLIENT_TOOL_REASON = 'diosc:client_tool';
export const APPROVAL_REASON = 'diosc:approval';

/** What a client tool's resume payload is: a result or an error (outcome-only, as the kit answers). */
const CLIENT_TOOL_ANSWER_SCHEMA = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['result'], properties: { result: {} } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['error'],
      properties: { error: { type: 'string', maxLength: 4_000 } },
    },
  ],
};

/**
 * The interrupts a waiting turn's current step holds, from the store (so a reload or another
 * instance gives the same): each client tool call with its arguments and expiry, each approval
 * request with a `responseSchema` that binds a decision to the digest of the exact arguments.
 */
export async function interruptsOfTurn(
  hub: HubServices,
  turn: TurnRecord,
  faceOf: (toolCallId: string) => Promise<ToolCallFace | undefined>,
): Promise<Interrupt[]> {
  const calls = await hub.toolCalls.forStep(turn.id, turn.step);
  const interrupts: Interrupt[] = [];
  for (const call of calls) {
    if (call.status !== 'interrupt' && call.status !== 'consensus') continue;
    const face = await faceOf(call.id);
    interrupts.push(call.status === 'interrupt' ? clientTool(call, face) : approval(call, face));
  }
  return interrupts;
}

function expiry(call: ToolCallRecord): string {
  return new Date(call.expiresAt ?? 0).toISOString();
}

function clientTool(call: ToolCallRecord, face: ToolCallFace | undefined): Interrupt {
  const name = face?.name ?? call.tool;
  return {
    id: call.id,
    reason: CLIENT_TOOL_REASON,
    message: `Run the client tool ${name} and resume with its result.`,
    toolCallId: call.id,
    responseSchema: CLIENT_TOOL_ANSWER_SCHEMA,
    expiresAt: expiry(call),
    metadata: { tool: name, args: call.args },
  };
}

function approval(call: ToolCallRecord, face: ToolCallFace | undefined): Interrupt {
  const digest = { const: call.argsDigest };
  const branch = (decision: string, extra: Record<string, unknown>, required: string[] = []) => ({
    type: 'object',
    additionalProperties: false,
    required: ['decision', 'argsDigest', ...required],
    properties: { decision: { const: decision }, argsDigest: digest, ...extra },
  });
  return {
    id: call.id,
    reason: APPROVAL_REASON,
    message: consensusSummary(call.tool, call.args),
    toolCallId: call.id,
    responseSchema: {
      oneOf: [
        branch('approve', {}),
        branch('edit', { args: call.schema ?? { type: 'object' } }, ['args']),
        branch('reject', { reason: { type: 'string', maxLength: 1_000 } }),
      ],
    },
    expiresAt: expiry(call),
    metadata: {
      tool: face?.name ?? call.tool,
      severity: call.severity ?? 'medium',
      args: call.args,
      argsDigest: call.argsDigest,
    },
  };
}
