// A Node client speaking the kit's protocol to /api/hub (what @diosc/kit does in a page), recording
// the body bytes of every request it sends upstream.
import type {
  BrowserInterrupt,
  ConversationView,
  InterruptAnswer,
  SendMessageRequest,
  VisitorSessionView,
} from '@diosc/protocol';
import { PAGE_ORIGIN } from './fixtures.js';
import { SseStream } from './sse.js';

export class HubClient {
  token = '';
  /** Body bytes of each request sent, in order. */
  readonly sent: { path: string; bytes: number }[] = [];

  constructor(readonly base: string) {}

  get headers(): Record<string, string> {
    return { origin: PAGE_ORIGIN, authorization: `Bearer ${this.token}` };
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (text !== undefined) this.sent.push({ path, bytes: Buffer.byteLength(text) });
    const response = await fetch(`${this.base}/api/hub${path}`, {
      method,
      headers: { ...this.headers, ...(text !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: text,
    });
    const raw = await response.text();
    return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T };
  }

  async must<T>(method: string, path: string, body: unknown, status: number): Promise<T> {
    const reply = await this.request<T>(method, path, body);
    if (reply.status !== status) {
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    }
    return reply.body;
  }

  async open(publishableKey: string): Promise<void> {
    const view = await this.must<VisitorSessionView>('POST', '/sessions', { publishableKey }, 201);
    this.token = view.token;
  }

  async conversation(): Promise<string> {
    return (await this.must<{ id: string }>('POST', '/conversations', {}, 201)).id;
  }

  send(conversationId: string, message: SendMessageRequest) {
    return this.must<{ turnId: string }>('POST', `/conversations/${conversationId}/messages`, message, 202);
  }

  answer(interruptId: string, answer: InterruptAnswer) {
    return this.must<{ status: string }>('POST', `/interrupts/${interruptId}/answer`, answer, 200);
  }

  view(conversationId: string) {
    return this.must<ConversationView>('GET', `/conversations/${conversationId}`, undefined, 200);
  }

  stream(conversationId: string): SseStream {
    return new SseStream(`${this.base}/api/hub/conversations/${conversationId}/events`, this.headers);
  }
}

/** The interrupt an `interrupt` event carries. */
export function interruptOf(data: string): BrowserInterrupt {
  return (JSON.parse(data) as { interrupt: BrowserInterrupt }).interrupt;
}
