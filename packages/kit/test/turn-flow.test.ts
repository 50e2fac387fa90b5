// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { eventually, startKit } from './support/harness.js';

describe('a turn through the fake hub', () => {
  it('sends the text with the registry and receives the streamed reply', async () => {
    const { diosc, hub } = startKit();
    const messages: string[] = [];
    diosc('on', 'message', (message) => messages.push(message.text));
    expect(await diosc('send', 'hello')).toBe(true);
    await eventually(() => expect(messages).toEqual(['You said: hello']));
    const sent = hub.requests.find((request) => request.path.endsWith('/messages'));
    expect(sent?.body).toEqual({
      text: 'hello',
      registry: { tools: ['navigate', 'read_page'], intents: [] },
    });
    expect(sent?.headers.authorization).toMatch(/^Bearer vst_/);
  });
});
