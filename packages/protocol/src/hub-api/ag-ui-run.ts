import { CLIENT_TOOL_NAME_PATTERN, PAGE_LIMITS } from './page.js';

/**
 * The body of `POST /api/hub/ag-ui`: an AG-UI 1.0 `RunAgentInput`, narrowed to what the hub maps.
 * Unknown fields are refused at every depth and every size is bounded, as for the kit's bodies. The
 * hub keeps the conversation, so what a client re-sends is checked against it, never trusted:
 * `state`, `forwardedProps` and `context` must be empty, and only user, assistant and tool messages
 * may appear (system and developer messages are the owner's, in the assistant's instructions).
 */
const CONVERSATION_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;
const WIRE_ID = { type: 'string', minLength: 1, maxLength: 128 } as const;
const EMPTY_OBJECT = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Caps on what a run may carry: a history is text the hub already holds, not storage. */
export const AG_UI_LIMITS = {
  maxMessages: 2_000,
  userTextMaxChars: 16_000,
  assistantTextMaxChars: 200_000,
  toolCallsPerMessage: 64,
  argumentsMaxChars: 65_536,
  toolContentMaxChars: 65_536,
  maxResume: 16,
} as const;

/** The body limit of the route: a 60-turn history fits many times over. */
export const AG_UI_RUN_MAX_BYTES = 1_048_576;

const TOOL_CALL = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type', 'function'],
  properties: {
    id: WIRE_ID,
    type: { const: 'function' },
    function: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'arguments'],
      properties: {
        name: { type: 'string', maxLength: 128 },
        arguments: { type: 'string', maxLength: AG_UI_LIMITS.argumentsMaxChars },
      },
    },
  },
} as const;

/**
 * One message of any of the three roles; which fields each role takes is checked after the schema
 * (`agUiMessageProblem`), so an unknown field is named at every depth whatever the role.
 */
const MESSAGE = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'role'],
  properties: {
    id: WIRE_ID,
    role: { enum: ['user', 'assistant', 'tool'] },
    name: { type: 'string', maxLength: 128 },
    content: { type: 'string', maxLength: AG_UI_LIMITS.assistantTextMaxChars },
    toolCalls: { type: 'array', maxItems: AG_UI_LIMITS.toolCallsPerMessage, items: TOOL_CALL },
    toolCallId: WIRE_ID,
    error: { type: 'string', maxLength: 4_000 },
  },
} as const;

/** What the schema cannot say per role: a user message is text, a tool message answers one call. */
export function agUiMessageProblem(message: AgUiMessage, index: number): string | undefined {
  const where = `body.messages[${index}]`;
  const has = (key: string) => Object.hasOwn(message, key);
  if (message.role === 'user') {
    if (typeof message.content !== 'string') return `${where} (a user message) needs its text in content.`;
    if (message.content.length > AG_UI_LIMITS.userTextMaxChars)
      return `${where}.content is over ${AG_UI_LIMITS.userTextMaxChars} characters.`;
    if (has('toolCalls') || has('toolCallId') || has('error'))
      return `${where} (a user message) carries only id, role, name and content.`;
  } else if (message.role === 'assistant') {
    if (has('toolCallId') || has('error'))
      return `${where} (an assistant message) carries no toolCallId or error.`;
  } else {
    if (typeof message.toolCallId !== 'string' || typeof message.content !== 'string')
      return `${where} (a tool message) needs toolCallId and content.`;
    if (has('toolCalls') || has('name')) return `${where} (a tool message) carries no toolCalls or name.`;
  }
  return undefined;
}

const CLIENT_TOOL = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description'],
  properties: {
    name: { type: 'string', pattern: CLIENT_TOOL_NAME_PATTERN },
    description: { type: 'string', minLength: 1, maxLength: PAGE_LIMITS.descriptionMaxChars },
    parameters: { type: 'object' },
  },
} as const;

const RESUME_ENTRY = {
  type: 'object',
  additionalProperties: false,
  required: ['interruptId', 'status'],
  properties: {
    interruptId: { type: 'string', maxLength: 64 },
    status: { enum: ['resolved', 'cancelled'] },
    payload: {},
    metadata: EMPTY_OBJECT,
  },
} as const;

export const AG_UI_RUN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['threadId', 'runId', 'messages'],
  properties: {
    threadId: CONVERSATION_ID,
    runId: WIRE_ID,
    parentRunId: WIRE_ID,
    protocolVersion: { type: 'string', maxLength: 16 },
    state: EMPTY_OBJECT,
    forwardedProps: EMPTY_OBJECT,
    context: { type: 'array', maxItems: 0 },
    messages: {
      type: 'array',
      maxItems: AG_UI_LIMITS.maxMessages,
      items: MESSAGE,
    },
    tools: { type: 'array', maxItems: PAGE_LIMITS.maxIntents, items: CLIENT_TOOL },
    resume: { type: 'array', maxItems: AG_UI_LIMITS.maxResume, items: RESUME_ENTRY },
  },
} as const;

export type AgUiMessage =
  | { id: string; role: 'user'; name?: string; content: string }
  | {
      id: string;
      role: 'assistant';
      name?: string;
      content?: string;
      toolCalls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { id: string; role: 'tool'; toolCallId: string; content: string; error?: string };

/** What the schema above lets through, typed. */
export interface AgUiRunBody {
  threadId: string;
  runId: string;
  parentRunId?: string;
  protocolVersion?: string;
  state?: Record<string, never>;
  forwardedProps?: Record<string, never>;
  context?: never[];
  messages: AgUiMessage[];
  tools?: { name: string; description: string; parameters?: Record<string, unknown> }[];
  resume?: {
    interruptId: string;
    status: 'resolved' | 'cancelled';
    payload?: unknown;
    metadata?: Record<string, never>;
  }[];
}
