import type { Message } from '@ag-ui/core';
import { type AgUiMessage, canonicalJson, DioscError } from '@diosc/protocol';

/** A history as a flat list, the same however a client groups tool calls into messages. */
type Item =
  | { kind: 'user'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'call'; id: string; name: string; args: string }
  | { kind: 'result'; toolCallId: string; content: string };

/** What a re-sent history is, against the hub's. */
export type Reconciled =
  /** The client holds all of it. */
  | { kind: 'same' }
  /** The client holds a beginning of it (a cut stream): it gets a `MESSAGES_SNAPSHOT`. */
  | { kind: 'behind' }
  /** All of it, and one new visitor message after it: a new turn. */
  | { kind: 'new-message'; text: string };

/**
 * Reconciles a client's history with the hub's: ids are the client's business and are not
 * compared; everything else is. The client may be behind (a stream cut mid-text or mid-turn), or
 * add exactly one user message at the end; anything else — an earlier message rewritten, a tool
 * result or an approval the hub never recorded, a second new message — is `history_mismatch`, and
 * the caller changes nothing.
 */
export function reconcileHistory(client: readonly AgUiMessage[], server: readonly Message[]): Reconciled {
  const theirs = itemsOf(client);
  const ours = itemsOf(server);
  const last = theirs.length - 1;
  for (let index = 0; index < Math.min(theirs.length, ours.length); index++) {
    const mine = ours[index]!;
    const given = theirs[index]!;
    if (sameItem(given, mine)) continue;
    // A text message cut in the middle: the client has its beginning.
    if (index === last && given.kind === 'text' && mine.kind === 'text' && mine.text.startsWith(given.text))
      return { kind: 'behind' };
    throw mismatch(index, given, mine);
  }
  if (theirs.length <= ours.length)
    return theirs.length === ours.length ? { kind: 'same' } : { kind: 'behind' };
  const extra = theirs[ours.length]!;
  if (theirs.length === ours.length + 1 && extra.kind === 'user')
    return { kind: 'new-message', text: extra.text };
  throw new DioscError(
    'history_mismatch',
    extra.kind === 'user'
      ? 'A run may add one new user message at the end of the history, not more.'
      : `The history holds a ${describe(extra)} the hub never recorded.`,
  );
}

function mismatch(index: number, given: Item, mine: Item): DioscError {
  return new DioscError(
    'history_mismatch',
    `Item ${index} of the history (a ${describe(given)}) differs from the hub's (a ${describe(mine)}).`,
  );
}

function describe(item: Item): string {
  switch (item.kind) {
    case 'user':
      return 'user message';
    case 'text':
      return 'assistant message';
    case 'call':
      return `tool call ${item.id}`;
    case 'result':
      return `tool result for ${item.toolCallId}`;
  }
}

function sameItem(a: Item, b: Item): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function itemsOf(messages: readonly (AgUiMessage | Message)[]): Item[] {
  const items: Item[] = [];
  const pushText = (text: string) => {
    if (text === '') return;
    const previous = items.at(-1);
    // Consecutive assistant texts are one: a client that reattached mid-text holds two pieces.
    if (previous?.kind === 'text') previous.text += text;
    else items.push({ kind: 'text', text });
  };
  for (const message of messages) {
    if (message.role === 'user') items.push({ kind: 'user', text: textOf(message.content) });
    else if (message.role === 'assistant') {
      pushText(message.content ?? '');
      for (const call of message.toolCalls ?? [])
        items.push({
          kind: 'call',
          id: call.id,
          name: call.function.name,
          args: argumentsOf(call.function.arguments),
        });
    } else if (message.role === 'tool')
      items.push({ kind: 'result', toolCallId: message.toolCallId, content: textOf(message.content) });
  }
  return items;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return JSON.stringify(content);
}

/** Arguments compared as JSON values (key order and spacing are the client's). */
function argumentsOf(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return `unparsed:${text}`;
  }
}
