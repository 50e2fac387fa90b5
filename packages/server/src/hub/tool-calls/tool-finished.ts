import type { HubEventBody } from '@diosc/protocol';
import type { ToolCallRecord } from '../store/tool-calls.js';

/** The `tool.finished` event of a call, however it ended: the one place it is built. */
export function toolFinished(
  call: Pick<ToolCallRecord, 'id' | 'turnId' | 'tool'>,
  outcome: { ok: boolean; summary?: string | undefined },
): HubEventBody {
  return {
    type: 'tool.finished',
    turnId: call.turnId,
    toolCallId: call.id,
    tool: call.tool,
    ok: outcome.ok,
    ...(outcome.summary !== undefined ? { summary: outcome.summary } : {}),
  };
}
