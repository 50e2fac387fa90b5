import { INTENT_TOOL_PREFIX } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';

/** A tool call as an AG-UI front end sees it: the name it declared, the arguments the model gave. */
export interface ToolCallFace {
  name: string;
  args: Record<string, unknown>;
}

/**
 * Looks up what `TOOL_CALL_START`/`TOOL_CALL_ARGS` say of a hub tool call. A client tool is an
 * intent to the model (`browser_<name>`); the front end declared `<name>`. The arguments are the
 * model's own, read from its stored message, so an approval edited later does not change what the
 * history said when the call was streamed.
 */
export function toolCallFaces(hub: HubServices, conversationId: string) {
  let inputs: Map<string, Record<string, unknown>> | undefined;
  const readInputs = async () => {
    const found = new Map<string, Record<string, unknown>>();
    for (const message of await hub.conversations.messages(conversationId)) {
      const content = message.content.content;
      if (message.role !== 'assistant' || typeof content === 'string') continue;
      for (const part of content) {
        if (part.type === 'tool-call') found.set(part.toolCallId, part.input as Record<string, unknown>);
      }
    }
    return found;
  };
  return async (toolCallId: string): Promise<ToolCallFace | undefined> => {
    const call = await hub.toolCalls.get(toolCallId);
    if (!call) return undefined;
    inputs ??= await readInputs();
    if (!inputs.has(call.modelCallId)) inputs = await readInputs();
    const name =
      call.kind === 'intent' && call.tool.startsWith(INTENT_TOOL_PREFIX)
        ? call.tool.slice(INTENT_TOOL_PREFIX.length)
        : call.tool;
    return { name, args: inputs.get(call.modelCallId) ?? call.args };
  };
}

export type ToolCallFaces = ReturnType<typeof toolCallFaces>;
