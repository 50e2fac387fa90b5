// The AI SDK's own chat client in Node: `AbstractChat` (what `useChat`'s `Chat` extends) over
// `DefaultChatTransport`, answering the client-side tool with `addToolOutput` and sending the
// result back by itself (`sendAutomaticallyWhen`). Every request body it sends is recorded.
import { performance } from 'node:perf_hooks';
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { RESULT, TOOL } from './fixtures.js';

/** The plain state `AbstractChat` needs outside a UI framework (React's `Chat` keeps it in hooks). */
class PlainState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((old, at) => (at === index ? message : old));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class NodeChat extends AbstractChat<UIMessage> {}

export interface SentRequest {
  bytes: number;
  /** performance.now() when the transport handed the request to fetch. */
  at: number;
  /** True when the request carries a tool result (the last message is the assistant's, with output). */
  toolResult: boolean;
}

export function createSdkChat(api: string) {
  const sent: SentRequest[] = [];
  /** performance.now() when each response had been read to its end. */
  const finished: number[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    const at = performance.now();
    const body = typeof init?.body === 'string' ? init.body : '';
    const messages = (JSON.parse(body || '{}') as { messages?: UIMessage[] }).messages ?? [];
    sent.push({ bytes: Buffer.byteLength(body), at, toolResult: messages.at(-1)?.role === 'assistant' });
    return fetch(input, init);
  };
  const chat: NodeChat = new NodeChat({
    state: new PlainState(),
    transport: new DefaultChatTransport({ api, fetch: countingFetch }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onFinish: () => {
      finished.push(performance.now());
    },
    // The page's handler: answer at once, like the kit's read_page. Not awaited (the SDK's advice:
    // awaiting addToolOutput inside onToolCall would wait on the job it is part of).
    onToolCall: ({ toolCall }) => {
      if (toolCall.toolName === TOOL)
        void chat.addToolOutput({ tool: TOOL, toolCallId: toolCall.toolCallId, output: RESULT });
    },
  });
  return { chat, sent, finished };
}

/** The text of the chat's last assistant message, once the chat is idle again. */
export function lastReply(chat: AbstractChat<UIMessage>): string {
  const last = chat.messages.at(-1);
  if (last?.role !== 'assistant') return '';
  return last.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
