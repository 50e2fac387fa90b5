import { type AssistantPublicView, DioscError, HUB_API_PREFIX } from '@diosc/protocol';
import { refusal, refusalOf } from './fake-reply.js';
import { route } from './fake-routes.js';
import type { FakeConversation, FakeHubContext, StoredFile } from './fake-state.js';
import type { TurnScript } from './fake-turn.js';

export interface FakeHubOptions {
  /** Default `https://hub.test`. */
  url?: string;
  /** Default `pk_test_fakehub0001`. */
  publishableKey?: string;
  assistant?: Partial<AssistantPublicView>;
  /** What each turn does; default: says back "You said: <text>". */
  script?: TurnScript;
}

/** One request as the fake hub received it — for asserting what the page sent over the wire. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The JSON body, or for uploads the form's text fields and the file's name, type and size. */
  body: unknown;
}

export interface FakeHub {
  readonly url: string;
  readonly publishableKey: string;
  /** Pass as `init({ fetch })`: the whole hub protocol, in memory. */
  readonly fetch: typeof fetch;
  readonly requests: RecordedRequest[];
  readonly conversations: Map<string, FakeConversation>;
  readonly files: Map<string, StoredFile>;
  script: TurnScript;
  /** Ends every open event stream, as a dropped connection would. */
  dropStreams(): void;
  /** Resolves when no turn is running. */
  idle(): Promise<void>;
}

/**
 * A hub in memory that speaks the kit's wire protocol exactly (the same request-body schemas and
 * validators as the real hub, the same events, refusals and status codes), for tests of host apps
 * and of the kit itself. Every request is recorded; turns follow a script.
 *
 * @example
 * const hub = createFakeHub({ script: async (turn) => turn.say(JSON.stringify(await turn.callTool('read_page'))) });
 * diosc('init', { hubUrl: hub.url, publishableKey: hub.publishableKey, fetch: hub.fetch });
 */
export function createFakeHub(options: FakeHubOptions = {}): FakeHub {
  const url = (options.url ?? 'https://hub.test').replace(/\/+$/, '');
  const context = { visitors: new Map(), turns: new Set() } as unknown as FakeHubContext;
  context.assistant = {
    id: 'a_fake',
    name: 'Fake assistant',
    browserTools: [],
    files: { enabled: true, maxFileBytes: 5 * 1024 * 1024, allowedTypes: [] },
    modelLabel: 'scripted test model',
    outsideLinks: false,
    ...options.assistant,
  };
  const hub: FakeHub = {
    url,
    publishableKey: options.publishableKey ?? 'pk_test_fakehub0001',
    requests: [],
    conversations: new Map(),
    files: new Map(),
    script: options.script ?? ((turn) => turn.say(`You said: ${turn.message.text}`)),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const target = new URL(request.url);
      const path = target.pathname.slice(HUB_API_PREFIX.length);
      const headers = Object.fromEntries(request.headers);
      const copy = request.clone();
      const type = request.headers.get('content-type') ?? '';
      const body = type.includes('json')
        ? await copy.json().catch(() => undefined)
        : type.includes('multipart')
          ? await summarizeForm(copy)
          : undefined;
      hub.requests.push({ method: request.method, path: target.pathname, headers, body });
      if (target.origin !== url || !target.pathname.startsWith(`${HUB_API_PREFIX}/`))
        return refusal('not_found');
      try {
        return await route(context, request, path);
      } catch (error) {
        if (DioscError.isInstance(error)) return refusalOf(error);
        return refusal('internal', String(error));
      }
    },
    dropStreams() {
      for (const conversation of hub.conversations.values())
        for (const stream of [...conversation.streams]) stream.end();
    },
    async idle() {
      while (context.turns.size > 0) await Promise.allSettled([...context.turns]);
    },
  };
  context.hub = hub;
  return hub;
}

async function summarizeForm(request: Request): Promise<Record<string, unknown>> {
  const form = await request.formData();
  const out: Record<string, unknown> = {};
  for (const [key, value] of form)
    out[key] = typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
  return out;
}
