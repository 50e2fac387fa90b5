import { DioscError } from '@diosc/protocol';
import { displayMessageOf } from '../conversations/display.js';
import type { HubServices } from '../hub-services.js';
import { safeProviderError } from '../model/safe-provider-error.js';

/**
 * A turn's good end: `done` (a compare-and-set: a cancel that came first wins), the conversation
 * free for the next message, the turn's MCP clients closed, and the reply announced as one message.
 * `text` is the hub's own closing words when it stopped the turn (the step limit).
 */
export async function finishTurn(
  hub: HubServices,
  turn: { id: string; conversationId: string; assistantId: string; lastSeq?: number },
  text?: string,
): Promise<void> {
  if (text) {
    await hub.conversations.appendMessage(turn.conversationId, {
      turnId: turn.id,
      content: { role: 'assistant', content: text },
    });
  }
  if (!(await hub.turns.transition(turn.id, ['running'], 'done'))) return;
  hub.telemetry.turnFinished(turn.assistantId);
  hub.tracing.turnEnded(turn.id, 'done');
  await hub.conversations.releaseTurn(turn.conversationId, turn.id);
  await hub.releaseServerTools(turn.id);
  const message = displayMessageOf(
    await hub.history.messages(turn.conversationId, { through: turn.lastSeq }),
    turn.id,
    await hub.toolCalls.locations([turn.id]),
  );
  if (message) await hub.events.append(turn.conversationId, { type: 'message', turnId: turn.id, message });
  await hub.events.append(turn.conversationId, { type: 'turn.done', turnId: turn.id });
}

/**
 * A turn that cannot go on ends `failed` with a code and a message the visitor may read. A
 * provider's error is outside text: it loses every secret of the assistant (and anything
 * key-shaped) before the turn's record, the visitor's event or the log sees it.
 */
export async function failTurn(hub: HubServices, turnId: string, error: unknown): Promise<void> {
  const turn = await hub.turns.get(turnId);
  if (!turn) return;
  const conversation = await hub.conversations.find(turn.conversationId);
  const assistant = conversation && (await hub.assistants.find(conversation.assistant_id));
  const redact = assistant ? (await hub.redactorFor(assistant)).text : (text: string) => text;
  const wire = DioscError.isInstance(error)
    ? { code: error.code, message: redact(error.message) }
    : { code: 'model_failed', message: safeProviderError(redact(plainMessage(error)), []) };
  hub.log.warn({ turnId, code: wire.code }, 'turn failed');
  if (!(await hub.turns.transition(turnId, ['running', 'waiting'], 'failed', wire))) return;
  hub.telemetry.turnFailed(conversation?.assistant_id ?? 'unknown', wire.code);
  hub.tracing.turnEnded(turnId, 'failed', wire.code);
  await hub.conversations.releaseTurn(turn.conversationId, turnId);
  await hub.releaseServerTools(turnId);
  await hub.events.append(turn.conversationId, { type: 'turn.failed', turnId, error: wire });
}

/** A provider's error text, without markup; the redactor and `safeProviderError` do the rest. */
function plainMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/<[^>]*>/g, '');
}
