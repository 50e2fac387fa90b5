import { randomUUID } from 'node:crypto';
import { DioscError, type SendMessageRequest, type SendMessageResponse } from '@diosc/protocol';
import type { Hub } from '../hub.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

const TITLE_CHARS = 60;

/**
 * A visitor message starts a turn: the conversation's one active turn is claimed first (a second
 * message while one runs is `turn_in_progress` — refused, not queued, so the visitor's page never
 * races an answer it has not seen), then the message and the page's registry are stored and the
 * runner takes it from there.
 */
export async function sendMessage(
  { services: hub, runner }: Hub,
  session: VisitorSession,
  { conversationId, body }: { conversationId: string; body: SendMessageRequest },
): Promise<SendMessageResponse> {
  const conversation = await hub.conversations.requireOwned(conversationId, session);
  const files = body.attachments?.length
    ? await hub.files.attachments(body.attachments, conversation.id)
    : [];
  if (body.text.trim() === '' && files.length === 0)
    throw new DioscError('invalid_input', 'A message needs text or an attachment.');
  const registry = body.registry ?? { tools: [], intents: [] };
  const turnId = `trn_${randomUUID()}`;
  const title = conversation.title === 'New conversation' ? titleOf(body.text) : undefined;
  const message = await hub.transaction(async (tx) => {
    await tx.conversations.claimTurn(conversation.id, turnId, title);
    await tx.turns.create(conversation.id, registry, turnId);
    return tx.conversations.appendMessage(conversation.id, {
      turnId,
      content: { role: 'user', content: [{ type: 'text', text: body.text }] },
      snapshot: body.snapshot ?? null,
      files,
    });
  });
  await hub.events.append(conversation.id, { type: 'turn.started', turnId, messageId: message.id });
  hub.telemetry.turnStarted(conversation.assistant_id);
  hub.tracing.turnBegan({ turnId, assistantId: conversation.assistant_id });
  runner.schedule(turnId);
  return { turnId, messageId: message.id };
}

/**
 * A conversation's title from its first message: one line of plain text. Control and format
 * characters become spaces — a title is shown as a label, and PostgreSQL refuses NUL in text (a
 * message holding one answered 500 there).
 */
function titleOf(text: string): string | undefined {
  const line = text.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim();
  return line ? line.slice(0, TITLE_CHARS) : undefined;
}
