import { type Event as AgUiEvent, EventType } from '@ag-ui/core';
import type { HubEvent } from '@diosc/protocol';
import type { ToolCallFaces } from './tool-call-names.js';

/** How a turn ended, when the event says so. */
export type TurnEnd =
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; error: { code: string; message: string } };

export interface Translated {
  events: AgUiEvent[];
  /** `turn.started`: the visitor's message, which the client already holds (never streamed). */
  userMessageId?: string;
  end?: TurnEnd;
}

/**
 * The hub's event log as AG-UI events, one log event at a time — the same mapping for a live run and
 * for the history the hub rebuilds (server-history.ts), so both say exactly the same thing. Ids are
 * derived from the log: a text message is named by its first delta's event id, a tool call keeps the
 * hub's call id, its result is `res_<call id>`. Tool results are outcomes (`{ ok, summary }`), never
 * the tool's output, as on the kit's wire.
 */
export function createEventTranslator(faces: ToolCallFaces, startedBefore: Iterable<string> = []) {
  let openText: string | undefined;
  const started = new Set<string>(startedBefore);

  const closeText = (): AgUiEvent[] => {
    if (!openText) return [];
    const end: AgUiEvent = { type: EventType.TEXT_MESSAGE_END, messageId: openText };
    openText = undefined;
    return [end];
  };

  return {
    /** Tool calls whose start this translator has emitted (results of others are left out). */
    started,
    closeText,
    async translate(event: HubEvent): Promise<Translated> {
      switch (event.type) {
        case 'turn.started':
          return { events: closeText(), userMessageId: event.messageId };
        case 'text.delta': {
          if (event.delta === '') return { events: [] };
          const events: AgUiEvent[] = [];
          if (!openText) {
            openText = `msg_${event.turnId}_${event.id}`;
            events.push({
              type: EventType.TEXT_MESSAGE_START,
              messageId: openText,
              role: 'assistant',
            });
          }
          events.push({
            type: EventType.TEXT_MESSAGE_CONTENT,
            messageId: openText,
            delta: event.delta,
          });
          return { events };
        }
        case 'tool.started': {
          const events = closeText();
          const face = await faces(event.toolCallId);
          if (!face) return { events };
          started.add(event.toolCallId);
          events.push(
            {
              type: EventType.TOOL_CALL_START,
              toolCallId: event.toolCallId,
              toolCallName: face.name,
              parentMessageId: `msg_${event.toolCallId}`,
            },
            {
              type: EventType.TOOL_CALL_ARGS,
              toolCallId: event.toolCallId,
              delta: JSON.stringify(face.args),
            },
            { type: EventType.TOOL_CALL_END, toolCallId: event.toolCallId },
          );
          return { events };
        }
        case 'tool.finished': {
          const events = closeText();
          if (!started.has(event.toolCallId)) return { events };
          events.push({
            type: EventType.TOOL_CALL_RESULT,
            messageId: `res_${event.toolCallId}`,
            toolCallId: event.toolCallId,
            role: 'tool',
            content: resultContent(event.ok, event.summary),
          });
          return { events };
        }
        case 'file.ready':
          return {
            events: [...closeText(), { type: EventType.CUSTOM, name: 'diosc.file', value: event.file }],
          };
        case 'turn.done':
          return { events: closeText(), end: { kind: 'done' } };
        case 'turn.cancelled':
          return { events: closeText(), end: { kind: 'cancelled' } };
        case 'turn.failed':
          return { events: closeText(), end: { kind: 'failed', error: event.error } };
        default:
          // Interrupts and approvals end a run (RUN_FINISHED's interrupt outcome, from the store);
          // their resolutions and the display message say nothing the stream has not said.
          return { events: [] };
      }
    },
  };
}

/** A tool result as the front end reads it: whether it worked and a short outcome, never the output. */
export function resultContent(ok: boolean, summary: string | undefined): string {
  return JSON.stringify(summary === undefined ? { ok } : { ok, summary });
}
