import type { ConsensusOutcome, ConsensusRequest } from './consensus.js';
import type { FileDescriptor } from './files.js';
import type { BrowserInterrupt } from './interrupts.js';

/**
 * The conversation's event log, as sent over Server-Sent Events: `id` increases within a
 * conversation and `Last-Event-ID` resumes right after it. The log is persisted; the stream is a view.
 */
export type HubEventBody =
  | { type: 'turn.started'; turnId: string; messageId: string }
  | { type: 'text.delta'; turnId: string; delta: string }
  | { type: 'tool.started'; turnId: string; toolCallId: string; tool: string; where: ToolLocation }
  | {
      type: 'tool.finished';
      turnId: string;
      toolCallId: string;
      tool: string;
      ok: boolean;
      /** A short plain-text outcome, e.g. an error code; never the tool's output. */
      summary?: string;
    }
  | { type: 'interrupt'; turnId: string; interrupt: BrowserInterrupt }
  | { type: 'interrupt.resolved'; turnId: string; interruptId: string; outcome: 'answered' | 'timed_out' }
  | { type: 'consensus.requested'; turnId: string; request: ConsensusRequest }
  | { type: 'consensus.resolved'; turnId: string; consensusId: string; decision: ConsensusOutcome }
  | { type: 'file.ready'; turnId: string; file: FileDescriptor }
  | { type: 'message'; turnId: string; message: ConversationMessage }
  | { type: 'turn.done'; turnId: string }
  | { type: 'turn.failed'; turnId: string; error: { code: string; message: string } }
  | { type: 'turn.cancelled'; turnId: string };

export type HubEventType = HubEventBody['type'];

export type HubEvent = HubEventBody & { id: number; at: string };

export type ToolLocation = 'server' | 'browser';

/** A message as the widget and the transcript show it (model text is untrusted: render as text/markdown). */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  files: FileDescriptor[];
  tools: ToolActivity[];
  createdAt: string;
}

export interface ToolActivity {
  toolCallId: string;
  tool: string;
  where: ToolLocation;
  ok: boolean | null;
  summary?: string;
}
