// The round-trip baseline: the least a page can do — read the event stream with fetch, answer each
// interrupt with a constant result — with no kit, in the same browser, against the same hub. Like the
// kit it keeps one conversation, so both histories grow the same way.
import { createSseParser, HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import { timedFetch } from './answer-timer.js';

const fetch = timedFetch(globalThis.fetch.bind(globalThis));
let connection: Promise<{
  post(path: string, body: unknown): Promise<unknown>;
  conversation: string;
}> | null = null;
let turnDone: (() => void) | null = null;

function connect(hub: string, publishableKey: string) {
  connection ??= (async () => {
    let token = '';
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${hub}${HUB_API_PREFIX}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return response.json();
    };
    token = ((await post(hubPath('openSession'), { publishableKey })) as { token: string }).token;
    const { id } = (await post(hubPath('createConversation'), {})) as { id: string };
    const response = await fetch(`${hub}${HUB_API_PREFIX}${hubPath('events', id)}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    void pump(response.body!.getReader(), post);
    return { post, conversation: id };
  })();
  return connection;
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  post: (path: string, body: unknown) => Promise<unknown>,
) {
  const decoder = new TextDecoder();
  const parse = createSseParser((message) => {
    const event = JSON.parse(message.data);
    if (event.type === 'interrupt')
      void post(hubPath('answerInterrupt', event.interrupt.id), {
        result: { highlighted: event.interrupt.args.id },
      });
    if (event.type === 'turn.done') turnDone?.();
  });
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return;
    parse(decoder.decode(chunk.value, { stream: true }));
  }
}

/** One turn: send, answer every interrupt, resolve at `turn.done`. */
async function run(hub: string, publishableKey: string): Promise<void> {
  const { post, conversation } = await connect(hub, publishableKey);
  const done = new Promise<void>((resolve) => (turnDone = resolve));
  await post(hubPath('sendMessage', conversation), {
    text: 'go',
    registry: { tools: ['highlight_row'], intents: [] },
  });
  await done;
}

Object.assign(window, { bareClient: { run } });
