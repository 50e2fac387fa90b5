import { DioscError } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';
import type { ToolCallRecord } from '../store/tool-calls.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

/**
 * The tool call (interrupt or approval request) if it belongs to this visitor's conversation, with
 * its turn's id and conversation. Another visitor's id answers exactly like an unknown one.
 */
export async function requireCallOfVisitor(
  hub: HubServices,
  session: VisitorSession,
  id: string,
  kinds: ToolCallRecord['kind'][],
): Promise<{ call: ToolCallRecord; turn: { id: string; conversationId: string } }> {
  const found = /^tc_[0-9a-f-]{36}$/.test(id) ? await hub.toolCalls.ofVisitor(id, session) : undefined;
  if (!found || !kinds.includes(found.call.kind))
    throw new DioscError('not_found', 'There is no such request.');
  return { call: found.call, turn: { id: found.call.turnId, conversationId: found.conversationId } };
}
