import type { ConversationView } from '@diosc/protocol';
import { DioscError, HUB_ROUTES, matchHubRoute } from '@diosc/protocol';
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

/** An empty body may be left out; anything in it is refused, as the hub refuses it. */
async function readEmpty(request: Request): Promise<void> {
  if ((await request.clone().text()) === '') return;
  validateHubBody('emptyBody', await readJson(request));
}

const EPOCH = new Date(0).toISOString();

function titleOf(conversation: FakeConversation): string {
  return conversation.messages.find((each) => each.role === 'user')?.text.slice(0, 80) ?? 'New conversation';
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

/** One request to `/api/hub<path>`: the route the table names, identity first (the bearer token). */
export async function route(context: FakeHubContext, request: Request, path: string): Promise<Response> {
  const { hub } = context;
  const method = request.method;
  const matched = matchHubRoute(method, path);
  if (!matched) return refusal('not_found', `No route ${method} ${path}.`);
  const { name, id = '' } = matched;
  if (name === 'openSession') {
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
      HUB_ROUTES.openSession.status,
    );
  }
  const token = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const visitorId = token ? context.visitors.get(token) : undefined;
  if (!visitorId) return refusal('unauthenticated');
  const owned = () => {
    const conversation = hub.conversations.get(id);
    return conversation?.visitorId === visitorId ? conversation : undefined;
  };
  switch (name) {
    case 'assistant':
      return json(context.assistant);
    case 'createConversation': {
      await readEmpty(request);
      const created = newId('c');
      hub.conversations.set(created, {
        id: created,
        visitorId,
        messages: [],
        events: [],
        turn: null,
        interrupts: new Map(),
        answered: new Map(),
        consensus: new Map(),
        streams: new Set(),
      });
      return json({ id: created }, HUB_ROUTES.createConversation.status);
    }
    case 'listConversations':
      return json({
        conversations: [...hub.conversations.values()]
          .filter((each) => each.visitorId === visitorId)
          .map((each) => ({ id: each.id, title: titleOf(each), createdAt: EPOCH, updatedAt: EPOCH })),
      });
    case 'conversation':
    case 'events':
    case 'uploadFile':
    case 'sendMessage': {
      const conversation = owned();
      if (!conversation) return refusal('not_found', 'There is no such conversation.');
      if (name === 'conversation') return json(conversationView(conversation));
      if (name === 'events') return openFakeStream(conversation, request);
      if (name === 'uploadFile') return uploadFakeFile(context, conversation, request);
      const body = validateHubBody('sendMessage', await readJson(request));
      return startTurn(context, conversation, body);
    }
    case 'answerInterrupt':
      return answerInterrupt(
        context,
        visitorId,
        id,
        validateHubBody('interruptAnswer', await readJson(request)),
      );
    case 'decideConsensus':
      return decideConsensus(
        context,
        visitorId,
        id,
        validateHubBody('consensusDecision', await readJson(request)),
      );
    case 'cancelTurn': {
      await readEmpty(request);
      const conversation = [...hub.conversations.values()].find(
        (each) => each.visitorId === visitorId && each.turn?.view.id === id,
      );
      if (!conversation?.turn) return refusal('not_found', 'There is no such turn.');
      const { status } = conversation.turn.view;
      if (status !== 'running' && status !== 'waiting') return refusal('turn_not_active');
      conversation.turn.ended.abort(new DOMException('The turn was cancelled.', 'AbortError'));
      return json({ ...conversation.turn.view, status: 'cancelled' });
    }
    case 'downloadFile':
      return downloadFakeFile(context, visitorId, id);
    case 'agUiRun':
      // The kit speaks its own wire; the AG-UI adapter is the real hub's (docs/ag-ui.md).
      return refusal('not_found', 'The fake hub does not speak AG-UI.');
  }
}
