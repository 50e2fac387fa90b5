import type { ConversationView } from '@diosc/protocol';
import { DioscError } from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import { answerInterrupt, decideConsensus, startTurn } from './fake-actions.js';
import { downloadFakeFile, uploadFakeFile } from './fake-files.js';
import { json, refusal } from './fake-reply.js';
import { openFakeStream } from './fake-sse.js';
import { type FakeConversation, type FakeHubContext, newId } from './fake-state.js';

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

/** One request to `/api/hub<path>`: identity first (the bearer token), then the route. */
export async function route(context: FakeHubContext, request: Request, path: string): Promise<Response> {
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
