import type { ApprovalSeverity, ConsensusRequest } from '@diosc/protocol';
import type { ToolCallRecord } from '../store/tool-calls.js';

const MAX_VALUE_CHARS = 60;

function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/**
 * The summary the hub writes for an approval request — from the tool's name and the exact
 * arguments, never from anything the model wrote about them.
 */
export function consensusSummary(tool: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args).slice(0, 4);
  const detail = entries.map(([key, value]) => `${key} = ${brief(value)}`).join(', ');
  const more = Object.keys(args).length > entries.length ? ', …' : '';
  return detail ? `Run ${tool} with ${detail}${more}` : `Run ${tool}`;
}

export function consensusRequestOf(call: ToolCallRecord): ConsensusRequest {
  return {
    id: call.id,
    turnId: call.turnId,
    tool: call.tool,
    severity: (call.severity ?? 'medium') as ApprovalSeverity,
    summary: consensusSummary(call.tool, call.args),
    args: call.args,
    argsDigest: call.argsDigest,
    schema: call.schema ?? { type: 'object' },
  };
}
