// Measurement 1: the bytes a client sends upstream for each browser-tool result, turn after turn
// of one conversation — ours (the kit's result-only answer) and the AI SDK's chat client, which
// sends the whole history with every tool result. Also timed: tool result sent → final reply in.
import { performance } from 'node:perf_hooks';
import type { AbstractChat, UIMessage } from 'ai';
import type { Child } from './children.js';
import { REGISTRY, REPLY, RESULT, userText } from './fixtures.js';
import { HubClient, interruptOf } from './hub-client.js';
import { createSdkChat, lastReply } from './sdk-chat.js';

export interface TurnBytes {
  /** Body bytes of the request that carried the tool result. */
  result: number;
  /** Body bytes of everything the client sent for the turn (the message and the result). */
  turn: number;
  /** From sending the tool result to the model's final reply fully received (ms). */
  replyMs: number;
}

type HubInfo = { url: string; publishableKey: string };

/** One conversation of `turns` turns on our hub, each with one read_page round trip. */
export async function oursConversation(hub: Child<HubInfo>, turns: number): Promise<TurnBytes[]> {
  const client = new HubClient(hub.info.url);
  await client.open(hub.info.publishableKey);
  const conversation = await client.conversation();
  const stream = client.stream(conversation);
  await stream.ready;
  const rows: TurnBytes[] = [];
  let cursor = 0;
  try {
    for (let turn = 1; turn <= turns; turn++) {
      const start = client.sent.length;
      await client.send(conversation, { text: userText(turn), registry: REGISTRY });
      const asked = await stream.next('interrupt', cursor);
      const answered = performance.now();
      await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
      const reply = await stream.next('message', asked.index + 1);
      if (!reply.event.data.includes(REPLY)) throw new Error(`ours turn ${turn}: unexpected reply`);
      const done = await stream.next('turn.done', reply.index + 1);
      cursor = done.index + 1;
      const sent = client.sent.slice(start);
      rows.push({
        result: sent.at(-1)!.bytes,
        turn: sent.reduce((sum, row) => sum + row.bytes, 0),
        replyMs: done.event.at - answered,
      });
    }
  } finally {
    stream.close();
  }
  return rows;
}

/** Resolves once the chat is idle (both of a turn's requests done), or fails after `timeoutMs`. */
export async function settled(chat: AbstractChat<UIMessage>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (chat.status !== 'ready' || lastReply(chat) === '') {
    if (chat.status === 'error') throw chat.error;
    if (Date.now() > deadline) throw new Error(`the AI SDK chat did not settle (${chat.status})`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The same conversation through `AbstractChat` + `DefaultChatTransport` against a streamText route. */
export async function sdkConversation(api: string, turns: number): Promise<TurnBytes[]> {
  const { chat, sent, finished } = createSdkChat(api);
  const rows: TurnBytes[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const start = sent.length;
    await chat.sendMessage({ text: userText(turn) });
    await settled(chat);
    if (!lastReply(chat).endsWith(REPLY)) throw new Error(`AI SDK turn ${turn}: unexpected reply`);
    const requests = sent.slice(start);
    const results = requests.filter((request) => request.toolResult);
    if (requests.length !== 2 || results.length !== 1) {
      throw new Error(`AI SDK turn ${turn}: expected a message and a tool result, saw ${requests.length}`);
    }
    rows.push({
      result: results[0]!.bytes,
      turn: requests.reduce((sum, row) => sum + row.bytes, 0),
      replyMs: finished.at(-1)! - results[0]!.at,
    });
  }
  return rows;
}
