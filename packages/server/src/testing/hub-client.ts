import {
  type ConsensusDecision,
  createSseParser,
  HUB_API_PREFIX,
  HUB_ROUTES,
  type HubEvent,
  type HubReplies,
  type HubRouteName,
  hubPath,
  type InterruptAnswer,
  type SendMessageRequest,
} from '@diosc/protocol';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A Node client that speaks the kit's protocol over real HTTP — what `@diosc/kit` does in a page,
 * without the page. Every call records its request body size, for the bytes-upstream checks.
 */
export class HubClient {
  token: string | undefined;
  readonly sent: { path: string; bytes: number }[] = [];

  constructor(
    readonly base: string,
    readonly origin: string,
  ) {}

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (text !== undefined) this.sent.push({ path, bytes: Buffer.byteLength(text) });
    const response = await fetch(`${this.base}${HUB_API_PREFIX}${path}`, {
      method,
      headers: {
        origin: this.origin,
        ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: text,
    });
    const raw = await response.text();
    return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T, headers: response.headers };
  }

  /** One JSON route of the hub's table; `request` is for paths the table does not hold (attacks). */
  call<N extends keyof HubReplies>(
    name: N,
    { id, body, headers }: { id?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Reply<HubReplies[N]>> {
    const path = (hubPath as (name: HubRouteName, id?: string) => string)(name, id);
    return this.request<HubReplies[N]>(HUB_ROUTES[name].method, path, body, headers);
  }

  async open(publishableKey: string, identity?: string) {
    const reply = await this.call('openSession', {
      body: { publishableKey, ...(identity ? { identity } : {}) },
    });
    if (reply.status !== HUB_ROUTES.openSession.status)
      throw new Error(`open session: ${reply.status} ${JSON.stringify(reply.body)}`);
    this.token = reply.body.token;
    return reply.body;
  }

  async conversation(): Promise<string> {
    const reply = await this.call('createConversation', { body: {} });
    if (reply.status !== HUB_ROUTES.createConversation.status)
      throw new Error(`conversation: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.id;
  }

  send(conversationId: string, message: SendMessageRequest) {
    return this.call('sendMessage', { id: conversationId, body: message });
  }

  answer(interruptId: string, answer: InterruptAnswer) {
    return this.call('answerInterrupt', { id: interruptId, body: answer });
  }

  decide(consensusId: string, decision: ConsensusDecision) {
    return this.call('decideConsensus', { id: consensusId, body: decision });
  }

  cancel(turnId: string) {
    return this.call('cancelTurn', { id: turnId, body: {} });
  }

  view(conversationId: string) {
    return this.call('conversation', { id: conversationId });
  }

  /** Opens the event stream; events arrive in `stream.events` and wake `next()` waiters. */
  stream(conversationId: string, lastEventId?: number): EventStream {
    return new EventStream(this, conversationId, lastEventId);
  }
}

/** Reads a conversation's SSE stream with fetch (a bearer header, as the kit does). */
export class EventStream {
  readonly events: HubEvent[] = [];
  readonly #abort = new AbortController();
  #waiters: (() => void)[] = [];
  readonly ready: Promise<void>;
  /** Resolves when the stream has ended: the server closed it, or `close()` was called. */
  readonly ended: Promise<void>;
  #end!: () => void;

  constructor(client: HubClient, conversationId: string, lastEventId?: number) {
    this.ended = new Promise((resolve) => {
      this.#end = resolve;
    });
    this.ready = this.#run(client, conversationId, lastEventId);
    this.ready.catch(() => this.#end());
  }

  async #run(client: HubClient, conversationId: string, lastEventId?: number): Promise<void> {
    const response = await fetch(`${client.base}${HUB_API_PREFIX}${hubPath('events', conversationId)}`, {
      headers: {
        accept: 'text/event-stream',
        origin: client.origin,
        authorization: `Bearer ${client.token}`,
        ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
      },
      signal: this.#abort.signal,
    });
    if (response.status !== 200 || !response.body)
      throw new Error(`events: ${response.status} ${await response.text()}`);
    void this.#read(response.body);
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parse = createSseParser((message) => {
      this.events.push(JSON.parse(message.data) as HubEvent);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    const reader = body.getReader();
    try {
      for (;;) {
        const { value: chunk, done } = await reader.read();
        if (done) break;
        parse(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // closed by close()
    }
    this.#end();
  }

  /** Waits until an event matching `predicate` has arrived (or `timeoutMs` passes) and returns it. */
  async until<T extends HubEvent['type']>(
    type: T,
    predicate: (event: Extract<HubEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Extract<HubEvent, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(
        (event): event is Extract<HubEvent, { type: T }> => event.type === type && predicate(event as never),
      );
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} event; saw ${this.events.map((e) => e.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  ofType<T extends HubEvent['type']>(type: T): Extract<HubEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<HubEvent, { type: T }> => event.type === type);
  }

  close(): void {
    this.#abort.abort();
  }
}
