import { DioscError } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';
import type { TurnRecord } from '../turns/turns.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';
import type { ToolCallRecord } from './tool-calls.js';

/**
 * The tool call (interrupt or approval request) if it belongs to this visitor's conversation.
 * Another visitor's id answers exactly like an unknown one.
 */
export async function requireCallOfVisitor(
  hub: HubServices,
  session: VisitorSession,
  id: string,
  kinds: ToolCallRecord['kind'][],
): Promise<{ call: ToolCallRecord; turn: TurnRecord }> {
  const call = /^tc_[0-9a-f-]{36}$/.test(id) ? await hub.toolCalls.get(id) : undefined;
  const turn = call && (await hub.turns.get(call.turnId));
  if (!call || !turn || !kinds.includes(call.kind))
    throw new DioscError('not_found', 'There is no such request.');
  await hub.conversations.requireOwned(turn.conversationId, session).catch(() => {
    throw new DioscError('not_found', 'There is no such request.');
  });
  return { call, turn };
}
