import type { ConsensusRequest } from './consensus.js';
import type { ConversationMessage } from './events.js';
import type { BrowserInterrupt } from './interrupts.js';
import type { PageRegistry, PageSnapshot } from './page.js';

/** `POST /api/hub/sessions`: the kit opens a visitor session with the assistant's publishable key. */
export interface OpenSessionRequest {
  publishableKey: string;
  /** A host-signed identity (JWT, HS256 with the assistant's identity secret); anonymous without. */
  identity?: string;
}

export interface VisitorSessionView {
  /** The visitor session token: sent as `Authorization: Bearer`; stored hashed on the server. */
  token: string;
  visitorId: string;
  expiresAt: string;
  assistant: AssistantPublicView;
}

/** What a page may know about an assistant (no instructions, no secrets, no server-tool config). */
export interface AssistantPublicView {
  id: string;
  name: string;
  /** Declared raw browser tools; the page supplies only the handlers. */
  browserTools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  files: { enabled: boolean; maxFileBytes: number; allowedTypes: string[] };
  /** The model's label, e.g. "scripted demo model" — never presented as an AI when scripted. */
  modelLabel: string;
  /**
   * Whether a link in the assistant's text that leaves the page's origin may be one click away;
   * when false the widget shows it with its full destination, as text.
   */
  outsideLinks: boolean;
}

/** `POST /api/hub/conversations/:id/messages`. */
export interface SendMessageRequest {
  text: string;
  snapshot?: PageSnapshot;
  registry?: PageRegistry;
  /** File IDs the visitor uploaded to this conversation. */
  attachments?: string[];
}

export interface SendMessageResponse {
  turnId: string;
  messageId: string;
}

export type TurnStatus = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

export interface TurnView {
  id: string;
  status: TurnStatus;
  error?: { code: string; message: string };
}

/** `GET /api/hub/conversations/:id`: enough for a reloaded page to pick up where it was. */
export interface ConversationView {
  id: string;
  messages: ConversationMessage[];
  turn: TurnView | null;
  pendingInterrupts: BrowserInterrupt[];
  pendingConsensus: ConsensusRequest[];
  lastEventId: number;
}

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}
