// A Node client speaking the kit's protocol to /api/hub (what @diosc/kit does in a page), recording
// the body bytes of every request it sends upstream.
import {
  type BrowserInterrupt,
  HUB_API_PREFIX,
  HUB_ROUTES,
  type HubReplies,
  type HubRouteName,
  hubPath,
  type InterruptAnswer,
  type SendMessageRequest,
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
    const response = await fetch(`${this.base}${HUB_API_PREFIX}${path}`, {
      method,
      headers: { ...this.headers, ...(text !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: text,
    });
    const raw = await response.text();
    return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T };
  }

  /** One JSON route of the hub's table; anything but the route's success status throws. */
  async must<N extends keyof HubReplies>(name: N, id?: string, body?: unknown): Promise<HubReplies[N]> {
    const { method, status } = HUB_ROUTES[name];
    const path = (hubPath as (name: HubRouteName, id?: string) => string)(name, id);
    const reply = await this.request<HubReplies[N]>(method, path, body);
    if (reply.status !== status) {
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    }
    return reply.body;
  }

  async open(publishableKey: string): Promise<void> {
    this.token = (await this.must('openSession', undefined, { publishableKey })).token;
  }

  async conversation(): Promise<string> {
    return (await this.must('createConversation', undefined, {})).id;
  }

  send(conversationId: string, message: SendMessageRequest) {
    return this.must('sendMessage', conversationId, message);
  }

  answer(interruptId: string, answer: InterruptAnswer) {
    return this.must('answerInterrupt', interruptId, answer);
  }

  view(conversationId: string) {
    return this.must('conversation', conversationId);
  }

  stream(conversationId: string): SseStream {
    return new SseStream(`${this.base}${HUB_API_PREFIX}${hubPath('events', conversationId)}`, this.headers);
  }
}

/** The interrupt an `interrupt` event carries. */
export function interruptOf(data: string): BrowserInterrupt {
  return (JSON.parse(data) as { interrupt: BrowserInterrupt }).interrupt;
}
