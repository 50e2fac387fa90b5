import {
  type AssistantPublicView,
  type ConversationView,
  DioscError,
  ERROR_CODES,
  type ErrorCode,
} from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import { answerInterrupt, decideConsensus, startTurn } from './fake-actions.js';
import { downloadFakeFile, uploadFakeFile } from './fake-files.js';
import { openFakeStream } from './fake-sse.js';
import { type FakeConversation, newId, type StoredFile } from './fake-state.js';
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

export interface FakeHubContext {
  hub: FakeHub;
  assistant: AssistantPublicView;
  visitors: Map<string, string>;
  turns: Set<Promise<void>>;
}

export function refusal(code: ErrorCode, message?: string): Response {
  const error = new DioscError(code, message);
  return Response.json(
    { error: error.toWire() },
    { status: ERROR_CODES[code].status, headers: { 'cache-control': 'no-store' } },
  );
}

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new DioscError('invalid_input', 'The body is not JSON.');
  }
}

function conversationView(conversation: FakeConversation): ConversationView {
  const turn = conversation.turn;
  return {
    id: conversation.id,
    messages: conversation.messages,
    turn: turn ? { ...turn.view } : null,
    pendingInterrupts: [...conversation.interrupts.values()].map((each) => each.interrupt),
    pendingConsensus: [...conversation.consensus.values()].map((each) => each.request),
    lastEventId: conversation.events.length,
  };
}

async function route(context: FakeHubContext, request: Request, path: string): Promise<Response> {
  const { hub } = context;
  const method = request.method;
  if (method === 'POST' && path === '/sessions') {
    const body = validateHubBody('openSession', await readJson(request));
    if (body.publishableKey !== hub.publishableKey) return refusal('unknown_assistant');
    const token = newId('vst');
    const visitorId = body.identity ? `user:${body.identity}` : newId('v');
    context.visitors.set(token, visitorId);
    return json(
      {
        token,
        visitorId,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        assistant: context.assistant,
      },
      201,
    );
  }
  const token = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const visitorId = token ? context.visitors.get(token) : undefined;
  if (!visitorId) return refusal('unauthenticated');
  const owned = (id: string | undefined) => {
    const conversation = id ? hub.conversations.get(id) : undefined;
    return conversation?.visitorId === visitorId ? conversation : undefined;
  };
  if (method === 'GET' && path === '/assistant') return json(context.assistant);
  if (method === 'POST' && path === '/conversations') {
    const id = newId('c');
    hub.conversations.set(id, {
      id,
      visitorId,
      messages: [],
      events: [],
      turn: null,
      interrupts: new Map(),
      answered: new Map(),
      consensus: new Map(),
      streams: new Set(),
    });
    return json({ id }, 201);
  }
  const [, collection, id, action] = path.split('/');
  if (collection === 'conversations') {
    const conversation = owned(id);
    if (!conversation) return refusal('not_found');
    if (method === 'GET' && !action) return json(conversationView(conversation));
    if (method === 'GET' && action === 'events') return openFakeStream(conversation, request);
    if (method === 'POST' && action === 'files') return uploadFakeFile(context, conversation, request);
    if (method === 'POST' && action === 'messages') {
      const body = validateHubBody('sendMessage', await readJson(request));
      return startTurn(context, conversation, body);
    }
  }
  if (method === 'POST' && collection === 'interrupts' && action === 'answer')
    return answerInterrupt(
      context,
      visitorId,
      id!,
      validateHubBody('interruptAnswer', await readJson(request)),
    );
  if (method === 'POST' && collection === 'consensus' && action === 'decision')
    return decideConsensus(
      context,
      visitorId,
      id!,
      validateHubBody('consensusDecision', await readJson(request)),
    );
  if (method === 'POST' && collection === 'turns' && action === 'cancel') {
    const conversation = [...hub.conversations.values()].find(
      (each) => each.visitorId === visitorId && each.turn?.view.id === id,
    );
    if (!conversation?.turn) return refusal('not_found');
    conversation.turn.ended.abort(new DOMException('The turn was cancelled.', 'AbortError'));
    return json({ ...conversation.turn.view });
  }
  if (collection === 'files' && method === 'GET' && id) return downloadFakeFile(context, visitorId, id);
  return refusal('not_found', `No route ${method} ${path}.`);
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
      const path = target.pathname.replace(/^\/api\/hub/, '');
      const headers = Object.fromEntries(request.headers);
      const copy = request.clone();
      const type = request.headers.get('content-type') ?? '';
      const body = type.includes('json')
        ? await copy.json().catch(() => undefined)
        : type.includes('multipart')
          ? await summarizeForm(copy)
          : undefined;
      hub.requests.push({ method: request.method, path: target.pathname, headers, body });
      if (target.origin !== url || !target.pathname.startsWith('/api/hub/')) return refusal('not_found');
      try {
        return await route(context, request, path);
      } catch (error) {
        if (DioscError.isInstance(error)) return refusal(error.code, error.message);
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
