import {
  type ApprovalSeverity,
  answerOutcome,
  type ConsensusDecision,
  type FileDescriptor,
  type InterruptAnswer,
  intentToolName,
  type SendMessageRequest,
} from '@diosc/protocol';
import { argsDigest, emitEvent, type FakeConversation, type FakeTurnState, newId } from './fake-state.js';

/** What a turn script can do — the page sees exactly what a real hub would send. */
export interface FakeTurn {
  readonly id: string;
  readonly conversationId: string;
  /** The visitor's message as the kit sent it: text, snapshot, registry, attachments. */
  readonly message: SendMessageRequest;
  /** Aborts when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** Streams text (`text.delta`). */
  text(delta: string): void;
  /** Streams `text` and saves it as the assistant's message (`message`). */
  say(text: string): void;
  /** Interrupts for a raw browser tool and waits for the page's answer (result only). */
  callTool(tool: string, args?: Record<string, unknown>): Promise<InterruptAnswer>;
  /** Interrupts for an intent (`browser_<name>`), with the severity the page declared. */
  callIntent(
    intent: string,
    args?: Record<string, unknown>,
    severity?: ApprovalSeverity,
  ): Promise<InterruptAnswer>;
  /** Asks the visitor to approve a server tool and waits for the decision. */
  consensus(request: {
    tool: string;
    severity: ApprovalSeverity;
    summary: string;
    args: Record<string, unknown>;
    schema?: Record<string, unknown>;
  }): Promise<ConsensusDecision>;
  /** Announces a file delivered in this turn (`file.ready`). */
  file(descriptor: FileDescriptor): void;
}

export type TurnScript = (turn: FakeTurn) => unknown;

function cancelled(signal: AbortSignal) {
  return new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The script-facing side of one turn of the fake hub. */
export function createFakeTurn(conversation: FakeConversation, state: FakeTurnState): FakeTurn {
  const turnId = state.view.id;
  const signal = state.ended.signal;
  let streamed = '';

  const interrupt = (
    kind: 'tool' | 'intent',
    tool: string,
    args: Record<string, unknown>,
    severity?: ApprovalSeverity,
  ) => {
    const id = newId('i');
    const toolCallId = newId('call');
    const name = kind === 'intent' ? intentToolName(tool) : tool;
    state.tools.push({ toolCallId, tool: name, where: 'browser', ok: null });
    emitEvent(conversation, { type: 'tool.started', turnId, toolCallId, tool: name, where: 'browser' });
    const answer = new Promise<InterruptAnswer>((resolve) => {
      conversation.interrupts.set(id, {
        interrupt: {
          id,
          turnId,
          conversationId: conversation.id,
          name: `browser:${name}`,
          tool,
          kind,
          args,
          ...(severity ? { severity } : {}),
          expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
        },
        resolve,
      });
    });
    state.view.status = 'waiting';
    emitEvent(conversation, {
      type: 'interrupt',
      turnId,
      interrupt: conversation.interrupts.get(id)!.interrupt,
    });
    return Promise.race([answer, cancelled(signal)]).then((value) => {
      const { ok, summary } = answerOutcome(value);
      state.view.status = 'running';
      state.tools = state.tools.map((each) =>
        each.toolCallId === toolCallId ? { ...each, ok, ...(summary ? { summary } : {}) } : each,
      );
      if ('file' in value && value.file) state.files.push(value.file);
      emitEvent(conversation, { type: 'interrupt.resolved', turnId, interruptId: id, outcome: 'answered' });
      emitEvent(conversation, {
        type: 'tool.finished',
        turnId,
        toolCallId,
        tool: name,
        ok,
        ...(summary ? { summary } : {}),
      });
      return value;
    });
  };

  return {
    id: turnId,
    conversationId: conversation.id,
    message: state.request,
    signal,
    text(delta) {
      streamed += delta;
      emitEvent(conversation, { type: 'text.delta', turnId, delta });
    },
    say(text) {
      this.text(text);
      const message = {
        id: newId('m'),
        role: 'assistant' as const,
        text: streamed,
        files: state.files,
        tools: state.tools,
        createdAt: new Date().toISOString(),
      };
      streamed = '';
      state.tools = [];
      state.files = [];
      conversation.messages.push(message);
      emitEvent(conversation, { type: 'message', turnId, message });
    },
    callTool: (tool, args = {}) => interrupt('tool', tool, args),
    callIntent: (intent, args = {}, severity) => interrupt('intent', intent, args, severity),
    async consensus(request) {
      // One id for the call and its request, as the hub has: the server tool starts, waits for
      // the decision, and finishes — declined when rejected.
      const id = newId('tc');
      const full = {
        id,
        turnId,
        schema: { type: 'object' },
        ...request,
        argsDigest: await argsDigest(request.args),
      };
      state.tools.push({ toolCallId: id, tool: request.tool, where: 'server', ok: null });
      emitEvent(conversation, {
        type: 'tool.started',
        turnId,
        toolCallId: id,
        tool: request.tool,
        where: 'server',
      });
      const decision = new Promise<ConsensusDecision>((resolve) =>
        conversation.consensus.set(id, { request: full, resolve }),
      );
      state.view.status = 'waiting';
      emitEvent(conversation, { type: 'consensus.requested', turnId, request: full });
      const decided = await Promise.race([decision, cancelled(signal)]);
      state.view.status = 'running';
      emitEvent(conversation, {
        type: 'consensus.resolved',
        turnId,
        consensusId: id,
        decision: decided.decision,
      });
      const ok = decided.decision !== 'reject';
      state.tools = state.tools.map((each) =>
        each.toolCallId === id ? { ...each, ok, ...(ok ? {} : { summary: 'declined' }) } : each,
      );
      emitEvent(conversation, {
        type: 'tool.finished',
        turnId,
        toolCallId: id,
        tool: request.tool,
        ok,
        ...(ok ? {} : { summary: 'declined' }),
      });
      return decided;
    },
    file(descriptor) {
      state.files.push(descriptor);
      emitEvent(conversation, { type: 'file.ready', turnId, file: descriptor });
    },
  };
}
