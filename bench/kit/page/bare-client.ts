// The round-trip baseline: the least a page can do — read the event stream with fetch, answer each
// interrupt with a constant result — with no kit, in the same browser, against the same hub. Like the
// kit it keeps one conversation, so both histories grow the same way.
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
      const response = await fetch(`${hub}/api/hub${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return response.json();
    };
    token = ((await post('/sessions', { publishableKey })) as { token: string }).token;
    const { id } = (await post('/conversations', {})) as { id: string };
    const response = await fetch(`${hub}/api/hub/conversations/${id}/events`, {
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
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return;
    buffer += decoder.decode(chunk.value, { stream: true });
    const messages = buffer.split('\n\n');
    buffer = messages.pop() ?? '';
    for (const message of messages) {
      const data = message.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const event = JSON.parse(data.slice(6));
      if (event.type === 'interrupt')
        void post(`/interrupts/${event.interrupt.id}/answer`, {
          result: { highlighted: event.interrupt.args.id },
        });
      if (event.type === 'turn.done') turnDone?.();
    }
  }
}

/** One turn: send, answer every interrupt, resolve at `turn.done`. */
async function run(hub: string, publishableKey: string): Promise<void> {
  const { post, conversation } = await connect(hub, publishableKey);
  const done = new Promise<void>((resolve) => (turnDone = resolve));
  await post(`/conversations/${conversation}/messages`, {
    text: 'go',
    registry: { tools: ['highlight_row'], intents: [] },
  });
  await done;
}

Object.assign(window, { bareClient: { run } });
