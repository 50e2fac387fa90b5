import { once } from 'node:events';
import type { PassThrough } from 'node:stream';
import { type Event as AgUiEvent, EventType, PROTOCOL_VERSION } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { HubEvent } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';
import type { ResumeOutcome } from './apply-resume.js';
import { createEventTranslator, type TurnEnd } from './event-translator.js';
import { interruptsOfTurn } from './interrupts-of-turn.js';
import type { ServerHistory } from './server-history.js';
import { toolCallFaces } from './tool-call-names.js';

export interface RunStreamInput {
  threadId: string;
  runId: string;
  conversationId: string;
  /** The log's newest event id when the run began: the history holds everything up to it. */
  cursor: number;
  history: ServerHistory;
  /** The client holds only a beginning of the history: it gets the whole of it first. */
  snapshot: boolean;
  resumed: readonly ResumeOutcome[];
}

const KEEP_ALIVE_MS = 15_000;

/**
 * One AG-UI run over SSE (`@ag-ui/encoder`): `RUN_STARTED`, the history when the client is behind,
 * then the conversation's log from the run's cursor translated event by event, until the turn ends
 * (`RUN_FINISHED`, or `RUN_ERROR` for a failed turn) or waits on the front end (`RUN_FINISHED` with
 * an `interrupt` outcome: its client tool calls and approval requests, read from the store). The
 * turn itself runs in the hub's runner, not here: a client that goes away stops only its view, and
 * a run with the same history picks the turn up where the log says it is.
 */
export async function streamRun(hub: HubServices, input: RunStreamInput, out: PassThrough): Promise<void> {
  const encoder = new EventEncoder();
  const faces = toolCallFaces(hub, input.conversationId);
  const translator = createEventTranslator(faces, input.history.started);
  let open = true;
  let wake: (() => void) | undefined;
  let pending = true;
  const closed = once(out, 'close').then(() => {
    open = false;
    wake?.();
  });
  // Every change a run waits for comes with an appended event: this process's (the bus), another
  // instance's (its signal) or one no signal announced (the hub's one log watch wakes the bus).
  const unsubscribe = hub.bus.subscribe(input.conversationId, () => {
    pending = true;
    wake?.();
  });
  const keepAlive = setInterval(() => open && out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();

  const send = async (events: AgUiEvent[]) => {
    for (const event of events) {
      if (!open) return;
      if (!out.write(encoder.encodeSSE(event))) await Promise.race([once(out, 'drain'), closed]);
    }
  };
  const finish = async (outcome: AgUiEvent) => {
    await send([...translator.closeText(), outcome]);
    open = false;
  };
  const base = { threadId: input.threadId, runId: input.runId };

  try {
    await send([{ type: EventType.RUN_STARTED, ...base, protocolVersion: PROTOCOL_VERSION }]);
    if (input.snapshot) await send([{ type: EventType.MESSAGES_SNAPSHOT, messages: input.history.messages }]);
    await send(
      input.resumed.map((outcome) => ({ type: EventType.CUSTOM, name: 'diosc.resume', value: outcome })),
    );
    let cursor = input.cursor;
    while (open) {
      if (!pending) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      pending = false;
      let batch: HubEvent[];
      let end: TurnEnd | undefined;
      do {
        batch = await hub.events.after(input.conversationId, cursor);
        for (const event of batch) {
          cursor = event.id;
          const translated = await translator.translate(event);
          await send(translated.events);
          if (translated.end) {
            end = translated.end;
            break;
          }
        }
      } while (open && !end && batch.length > 0);
      if (!open) break;
      if (end) {
        await finish(endEvent(base, end));
        break;
      }
      const stop = await stopPoint(hub, input.conversationId, translator.started, faces, base);
      if (stop) await finish(stop);
    }
  } catch (error) {
    hub.log.warn({ err: error, conversationId: input.conversationId }, 'AG-UI run failed');
    await send([
      { type: EventType.RUN_ERROR, message: 'Something went wrong on the server.', code: 'internal' },
    ]);
  } finally {
    clearInterval(keepAlive);
    unsubscribe();
    out.end();
  }
}

function endEvent(base: { threadId: string; runId: string }, end: TurnEnd): AgUiEvent {
  if (end.kind === 'failed')
    return { type: EventType.RUN_ERROR, message: end.error.message, code: end.error.code };
  return {
    type: EventType.RUN_FINISHED,
    ...base,
    outcome: { type: end.kind === 'done' ? 'success' : 'cancelled' },
  };
}

/**
 * Where a caught-up run stops without a turn-ending event of its own: the turn ended before the run
 * (or its event is still being written), or it waits on interrupts whose tool calls the client has
 * been shown. Anything else — a running step, interrupts not yet announced — keeps the run open.
 */
async function stopPoint(
  hub: HubServices,
  conversationId: string,
  started: ReadonlySet<string>,
  faces: ReturnType<typeof toolCallFaces>,
  base: { threadId: string; runId: string },
): Promise<AgUiEvent | undefined> {
  const turn = await hub.turns.latestOf(conversationId);
  if (!turn || turn.status === 'done')
    return { type: EventType.RUN_FINISHED, ...base, outcome: { type: 'success' } };
  if (turn.status === 'cancelled')
    return { type: EventType.RUN_FINISHED, ...base, outcome: { type: 'cancelled' } };
  if (turn.status === 'failed')
    return {
      type: EventType.RUN_ERROR,
      message: turn.error?.message ?? 'The turn failed.',
      code: turn.error?.code ?? 'internal',
    };
  if (turn.status !== 'waiting') return undefined;
  const interrupts = await interruptsOfTurn(hub, turn, faces);
  if (interrupts.length === 0 || interrupts.some((interrupt) => !started.has(interrupt.id))) return undefined;
  return { type: EventType.RUN_FINISHED, ...base, outcome: { type: 'interrupt', interrupts } };
}
