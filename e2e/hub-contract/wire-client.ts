import {
  createSseParser,
  HUB_API_PREFIX,
  HUB_ROUTES,
  type HubEvent,
  type HubReplies,
  type HubRouteName,
  hubPath,
} from '@diosc/protocol';

export interface WireReply<T> {
  status: number;
  body: T;
}

/**
 * The visitor's wire spoken from the route table alone, over any `fetch` (the real hub's over
 * loopback HTTP, or the fake hub's in memory): what the contract suite holds both hubs to.
 */
export interface WireClient {
  token: string | undefined;
  call<N extends keyof HubReplies>(
    name: N,
    target?: { id?: string; body?: unknown; token?: string | null },
  ): Promise<WireReply<HubReplies[N]>>;
  /** A request the table does not hold, or a body it refuses: raw method, path and body text. */
  raw(method: string, path: string, body?: string): Promise<WireReply<unknown>>;
  /** The conversation's events after `lastEventId` (all by default), collected as they arrive. */
  events(conversationId: string, lastEventId?: number): Promise<EventLog>;
  upload(conversationId: string, form: FormData): Promise<WireReply<HubReplies['uploadFile']>>;
  download(fileId: string): Promise<{ status: number; text: string }>;
}

export interface EventLog {
  readonly events: HubEvent[];
  /** Waits for the first event of `type` at or after `from` (20 s, then it fails with what came). */
  next<T extends HubEvent['type']>(type: T, from?: number): Promise<Extract<HubEvent, { type: T }>>;
  close(): void;
}

export function wireClient(options: { url: string; origin: string; fetch: typeof fetch }): WireClient {
  const base = `${options.url}${HUB_API_PREFIX}`;
  const headers = (token: string | null | undefined, json: boolean) => ({
    origin: options.origin,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
  });
  const send = async (
    method: string,
    path: string,
    body: string | undefined,
    token: string | null | undefined,
  ) => {
    const response = await options.fetch(`${base}${path}`, {
      method,
      headers: headers(token, body !== undefined),
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const client: WireClient = {
    token: undefined,
    call(name, { id, body, token } = {}) {
      const path = (hubPath as (name: HubRouteName, id?: string) => string)(name, id);
      const text = body === undefined ? undefined : JSON.stringify(body);
      return send(HUB_ROUTES[name].method, path, text, token === undefined ? client.token : token);
    },
    raw: (method, path, body) => send(method, path, body, client.token),
    async upload(conversationId, form) {
      const response = await options.fetch(`${base}${hubPath('uploadFile', conversationId)}`, {
        method: HUB_ROUTES.uploadFile.method,
        headers: headers(client.token, false),
        body: form,
      });
      return { status: response.status, body: await response.json() };
    },
    async download(fileId) {
      const response = await options.fetch(`${base}${hubPath('downloadFile', fileId)}`, {
        headers: headers(client.token, false),
      });
      return { status: response.status, text: await response.text() };
    },
    async events(conversationId, lastEventId) {
      const abort = new AbortController();
      const response = await options.fetch(`${base}${hubPath('events', conversationId)}`, {
        headers: {
          ...headers(client.token, false),
          accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
        },
        signal: abort.signal,
      });
      if (response.status !== HUB_ROUTES.events.status || !response.body)
        throw new Error(`events: ${response.status} ${await response.text()}`);
      const events: HubEvent[] = [];
      let wake: (() => void) | undefined;
      const parse = createSseParser((message) => {
        events.push(JSON.parse(message.data) as HubEvent);
        wake?.();
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            parse(decoder.decode(value, { stream: true }));
          }
        } catch {
          // Closed by close().
        }
      })();
      return {
        events,
        async next(type, from = 0) {
          const deadline = Date.now() + 20_000;
          for (;;) {
            const found = events.slice(from).find((event) => event.type === type);
            if (found) return found as never;
            const left = deadline - Date.now();
            if (left <= 0)
              throw new Error(`no ${type} event; saw ${events.map((each) => each.type).join(', ')}`);
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, left);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
        },
        close: () => abort.abort(),
      };
    },
  };
  return client;
}
