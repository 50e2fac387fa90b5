import { type Event as AgUiEvent, type AssistantMessage, EventType, type Message } from '@ag-ui/core';

/**
 * Folds the events this adapter emits into messages, the way an AG-UI client does: a text message
 * per TEXT_MESSAGE_START, an assistant message per tool call (under its `parentMessageId`), a tool
 * message per result. Only the events the translator emits are handled.
 */
export function applyToMessages(messages: Message[], events: AgUiEvent[]): void {
  const assistant = (id: string) =>
    messages.find(
      (message): message is AssistantMessage => message.id === id && message.role === 'assistant',
    );
  const withCall = (toolCallId: string) =>
    messages
      .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
      .find((call) => call.id === toolCallId);
  for (const event of events) {
    switch (event.type) {
      case EventType.TEXT_MESSAGE_START:
        messages.push({ id: event.messageId, role: 'assistant', content: '' });
        break;
      case EventType.TEXT_MESSAGE_CONTENT: {
        const message = assistant(event.messageId);
        if (message) message.content = `${message.content ?? ''}${event.delta}`;
        break;
      }
      case EventType.TOOL_CALL_START: {
        const id = event.parentMessageId ?? event.toolCallId;
        const call = {
          id: event.toolCallId,
          type: 'function' as const,
          function: { name: event.toolCallName, arguments: '' },
        };
        const parent = assistant(id);
        if (parent) parent.toolCalls = [...(parent.toolCalls ?? []), call];
        else messages.push({ id, role: 'assistant', toolCalls: [call] });
        break;
      }
      case EventType.TOOL_CALL_ARGS: {
        const call = withCall(event.toolCallId);
        if (call) call.function.arguments += event.delta;
        break;
      }
      case EventType.TOOL_CALL_RESULT:
        messages.push({
          id: event.messageId,
          role: 'tool',
          toolCallId: event.toolCallId,
          content: event.content,
        });
        break;
      default:
        break;
    }
  }
}
