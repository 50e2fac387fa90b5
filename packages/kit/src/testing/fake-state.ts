import type {
  BrowserInterrupt,
  ConsensusDecision,
  ConsensusRequest,
  ConversationMessage,
  FileDescriptor,
  HubEvent,
  HubEventBody,
  InterruptAnswer,
  SendMessageRequest,
  ToolActivity,
  TurnView,
} from '@diosc/protocol';
import { canonicalJson } from '@diosc/protocol';

/** One open event stream of the fake hub. */
export interface FakeStream {
  send(event: HubEvent): void;
  end(): void;
}

export interface FakeTurnState {
  view: TurnView;
  request: SendMessageRequest;
  tools: ToolActivity[];
  files: FileDescriptor[];
  ended: AbortController;
}

export interface PendingInterrupt {
  interrupt: BrowserInterrupt;
  resolve(answer: InterruptAnswer): void;
}

export interface PendingConsensus {
  request: ConsensusRequest;
  resolve(decision: ConsensusDecision): void;
}

export interface FakeConversation {
  id: string;
  visitorId: string;
  messages: ConversationMessage[];
  events: HubEvent[];
  turn: FakeTurnState | null;
  interrupts: Map<string, PendingInterrupt>;
  /** Answers already accepted, by interrupt id (a repeat is `duplicate`, another body a conflict). */
  answered: Map<string, string>;
  consensus: Map<string, PendingConsensus>;
  streams: Set<FakeStream>;
}

export interface StoredFile {
  descriptor: FileDescriptor;
  visitorId: string;
  conversationId: string;
  interruptId: string | null;
  blob: Blob;
  /** The type the page declared. */
  type: string;
}

/** Appends an event to the conversation's log and sends it to every open stream. */
export function emitEvent(conversation: FakeConversation, body: HubEventBody): HubEvent {
  const event = { ...body, id: conversation.events.length + 1, at: new Date().toISOString() } as HubEvent;
  conversation.events.push(event);
  for (const stream of conversation.streams) stream.send(event);
  return event;
}

/** Ids the hub's way: a prefix and random hex. */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** SHA-256 (hex) of canonical JSON, as the hub digests consensus arguments. */
export async function argsDigest(args: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(args));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
