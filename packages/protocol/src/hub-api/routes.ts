import type { FileDescriptor } from './files.js';
import type { HubBodyName } from './schemas.js';
import type {
  AssistantPublicView,
  ConversationSummary,
  ConversationView,
  SendMessageResponse,
  TurnView,
  VisitorSessionView,
} from './sessions.js';

/** Where the visitor's wire lives on the hub's origin; every route path below is under it. */
export const HUB_API_PREFIX = '/api/hub';

/** What a route's request carries: a JSON body checked against a named schema, a form, or nothing. */
export type HubRouteBody = HubBodyName | 'multipart' | 'none';

/** What a route answers with when it succeeds. */
export type HubRouteReply = 'json' | 'event-stream' | 'bytes';

export interface HubRoute {
  readonly method: 'GET' | 'POST';
  /** Under `HUB_API_PREFIX`; `:id` is the one parameter a path may hold. */
  readonly path: string;
  readonly body: HubRouteBody;
  /** The status of a success. */
  readonly status: 200 | 201 | 202;
  readonly reply: HubRouteReply;
}

/**
 * The hub's visitor wire, one row per route: the hub registers exactly these, and the kit, the fake
 * hub, the test and bench clients build their requests from them — so a path is spelled once.
 * `sessions` is the only route without a visitor session (it opens one).
 */
export const HUB_ROUTES = {
  openSession: { method: 'POST', path: '/sessions', body: 'openSession', status: 201, reply: 'json' },
  assistant: { method: 'GET', path: '/assistant', body: 'none', status: 200, reply: 'json' },
  createConversation: {
    method: 'POST',
    path: '/conversations',
    body: 'emptyBody',
    status: 201,
    reply: 'json',
  },
  listConversations: { method: 'GET', path: '/conversations', body: 'none', status: 200, reply: 'json' },
  conversation: { method: 'GET', path: '/conversations/:id', body: 'none', status: 200, reply: 'json' },
  events: {
    method: 'GET',
    path: '/conversations/:id/events',
    body: 'none',
    status: 200,
    reply: 'event-stream',
  },
  sendMessage: {
    method: 'POST',
    path: '/conversations/:id/messages',
    body: 'sendMessage',
    status: 202,
    reply: 'json',
  },
  uploadFile: {
    method: 'POST',
    path: '/conversations/:id/files',
    body: 'multipart',
    status: 201,
    reply: 'json',
  },
  answerInterrupt: {
    method: 'POST',
    path: '/interrupts/:id/answer',
    body: 'interruptAnswer',
    status: 200,
    reply: 'json',
  },
  decideConsensus: {
    method: 'POST',
    path: '/consensus/:id/decision',
    body: 'consensusDecision',
    status: 200,
    reply: 'json',
  },
  cancelTurn: { method: 'POST', path: '/turns/:id/cancel', body: 'emptyBody', status: 200, reply: 'json' },
  downloadFile: { method: 'GET', path: '/files/:id', body: 'none', status: 200, reply: 'bytes' },
  /** An AG-UI run (docs/ag-ui.md): a turn, or the continuation of one, as AG-UI events. */
  agUiRun: { method: 'POST', path: '/ag-ui', body: 'agUiRun', status: 200, reply: 'event-stream' },
} as const satisfies Record<string, HubRoute>;

export type HubRouteName = keyof typeof HUB_ROUTES;

/** A route whose path holds `:id`. */
export type HubRouteWithId = {
  [N in HubRouteName]: (typeof HUB_ROUTES)[N]['path'] extends `${string}:id${string}` ? N : never;
}[HubRouteName];

/** An answer to an interrupt or a decision: taken now, or the same body taken before. */
export interface HubAcknowledgement {
  status: 'accepted' | 'duplicate';
}

/** What each JSON route answers with. */
export interface HubReplies {
  openSession: VisitorSessionView;
  assistant: AssistantPublicView;
  createConversation: { id: string };
  listConversations: { conversations: ConversationSummary[] };
  conversation: ConversationView;
  sendMessage: SendMessageResponse;
  uploadFile: FileDescriptor;
  answerInterrupt: HubAcknowledgement;
  /** A decision is taken once; a second is `consensus_not_pending`. */
  decideConsensus: { status: 'accepted' };
  cancelTurn: TurnView;
}

/** The path (under the prefix) of a route; an id is percent-encoded into its one slot. */
export function hubPath(name: Exclude<HubRouteName, HubRouteWithId>): string;
export function hubPath(name: HubRouteWithId, id: string): string;
export function hubPath(name: HubRouteName, id?: string): string {
  const { path } = HUB_ROUTES[name];
  return id === undefined ? path : path.replace(':id', encodeURIComponent(id));
}

/** The route a request names, and its id — for a hub in memory that answers the same wire. */
export function matchHubRoute(
  method: string,
  path: string,
): { name: HubRouteName; id: string | undefined } | undefined {
  const parts = path.split('/');
  for (const [name, route] of Object.entries(HUB_ROUTES) as [HubRouteName, HubRoute][]) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    let id: string | undefined;
    const matches = pattern.every((segment, index) => {
      const part = parts[index]!;
      if (segment !== ':id') return segment === part;
      id = decodeSegment(part);
      return id !== undefined && id !== '';
    });
    if (matches) return { name, id };
  }
  return undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
