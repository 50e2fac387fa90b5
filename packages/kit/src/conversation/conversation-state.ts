import type {
  AssistantPublicView,
  ConversationMessage,
  ConversationView,
  FileDescriptor,
  HubEvent,
  ToolActivity,
  TurnStatus,
} from '@diosc/protocol';

export type Connection = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'offline' | 'error';

/** The reply being streamed: text so far, tools running, files delivered. */
export interface Draft {
  turnId: string;
  text: string;
  tools: ToolActivity[];
  files: FileDescriptor[];
}

/** What the widget renders. Changed only by `reduceEvent` and the few setters beside it. */
export interface ConversationState {
  connection: Connection;
  /** The assistant as the hub describes it to pages (name, model label, file permission). */
  assistant: AssistantPublicView | null;
  error: { code: string; message: string } | null;
  messages: ConversationMessage[];
  draft: Draft | null;
  turn: { id: string; status: TurnStatus } | null;
  /** The last turn's end when it did not finish normally. */
  notice: { kind: 'cancelled' | 'failed'; message?: string } | null;
}

export const INITIAL_STATE: ConversationState = {
  connection: 'idle',
  assistant: null,
  error: null,
  messages: [],
  draft: null,
  turn: null,
  notice: null,
};

const active = (status: TurnStatus) => status === 'running' || status === 'waiting';

export function isTurnActive(state: ConversationState): boolean {
  return state.turn !== null && active(state.turn.status);
}

/** The state a reloaded page starts from: the saved messages and the turn still in flight. */
export function fromView(state: ConversationState, view: ConversationView): ConversationState {
  const turn = view.turn && active(view.turn.status) ? { id: view.turn.id, status: view.turn.status } : null;
  return {
    ...state,
    messages: view.messages,
    turn,
    draft: turn ? { turnId: turn.id, text: '', tools: [], files: [] } : null,
  };
}

export function addMessage(state: ConversationState, message: ConversationMessage): ConversationState {
  const others = state.messages.filter((each) => each.id !== message.id);
  return { ...state, messages: [...others, message] };
}

function withDraft(state: ConversationState, turnId: string, change: (draft: Draft) => Draft) {
  const draft = state.draft?.turnId === turnId ? state.draft : { turnId, text: '', tools: [], files: [] };
  return { ...state, draft: change(draft) };
}

function ended(state: ConversationState, notice: ConversationState['notice']): ConversationState {
  const status: TurnStatus = notice ? (notice.kind === 'failed' ? 'failed' : 'cancelled') : 'done';
  return { ...state, draft: null, notice, turn: state.turn ? { ...state.turn, status } : null };
}

/** Applies one hub event. Pure: the same events in the same order give the same state. */
export function reduceEvent(state: ConversationState, event: HubEvent): ConversationState {
  switch (event.type) {
    case 'turn.started':
      return {
        ...state,
        notice: null,
        turn: { id: event.turnId, status: 'running' },
        draft: { turnId: event.turnId, text: '', tools: [], files: [] },
      };
    case 'text.delta':
      return withDraft(state, event.turnId, (draft) => ({ ...draft, text: draft.text + event.delta }));
    case 'tool.started':
      return withDraft(state, event.turnId, (draft) => ({
        ...draft,
        tools: [
          ...draft.tools,
          { toolCallId: event.toolCallId, tool: event.tool, where: event.where, ok: null },
        ],
      }));
    case 'tool.finished':
      return withDraft(state, event.turnId, (draft) => ({
        ...draft,
        tools: draft.tools.map((tool) =>
          tool.toolCallId === event.toolCallId ? { ...tool, ok: event.ok, summary: event.summary } : tool,
        ),
      }));
    case 'file.ready':
      return withDraft(state, event.turnId, (draft) => addFile(draft, event.file));
    case 'interrupt':
    case 'consensus.requested':
      return state.turn?.id === event.turnId
        ? { ...state, turn: { id: event.turnId, status: 'waiting' } }
        : state;
    case 'interrupt.resolved':
    case 'consensus.resolved':
      return state.turn?.id === event.turnId
        ? { ...state, turn: { id: event.turnId, status: 'running' } }
        : state;
    case 'message': {
      const next = addMessage(state, event.message);
      // The saved reply replaces what was streamed so far; the turn may go on with more steps.
      return next.draft?.turnId === event.turnId
        ? { ...next, draft: { turnId: event.turnId, text: '', tools: [], files: [] } }
        : next;
    }
    case 'turn.done':
      return ended(state, null);
    case 'turn.failed':
      return ended(state, { kind: 'failed', message: event.error.message });
    case 'turn.cancelled':
      return ended(state, { kind: 'cancelled' });
    default:
      return state;
  }
}

/** Adds a file chip to the reply being streamed, once per file id. */
export function addFile(draft: Draft, file: FileDescriptor): Draft {
  return draft.files.some((each) => each.fileId === file.fileId)
    ? draft
    : { ...draft, files: [...draft.files, file] };
}
