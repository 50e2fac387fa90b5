import { afterEach, expect, it } from 'vitest';
import { startChatCompletionsServer, streamedReply } from './model/chat-completions-server.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';

let server: HubTestServer | undefined;
let upstream: Awaited<ReturnType<typeof startChatCompletionsServer>> | undefined;
afterEach(async () => {
  await server?.close();
  await upstream?.close();
  server = undefined;
  upstream = undefined;
});

describeOnDialects('a turn on an openai-compatible model over loopback HTTP', () => {
  it('streams text, calls a browser tool, continues with its result — the path an Ollama user takes', async () => {
    upstream = await startChatCompletionsServer([
      {
        chunks: streamedReply('llama3.2', {
          text: ['Let me ', 'read the page.'],
          toolCall: { id: 'call_read_1', name: 'read_page', arguments: {} },
        }),
      },
      { chunks: streamedReply('llama3.2', { text: ['The page sells ', 'green tea.'] }) },
    ]);
    server = await startHubServer({ hub: { fetchPrivate: true } });
    const assistant = await server.createAssistant({
      name: 'Local model',
      model: { provider: 'openai-compatible', id: 'llama3.2', baseUrl: upstream.baseUrl },
      allowedOrigins: [server.pageOrigin],
    });
    const client = server.client();
    const session = await client.open(assistant.publishableKey);
    expect(session.assistant.modelLabel).toContain('llama3.2');
    const conversation = await client.conversation();
    const stream = client.stream(conversation);
    await stream.ready;
    await client.send(conversation, {
      text: 'What does this page sell?',
      snapshot: { url: `${server.pageOrigin}/`, title: 'Tea shop', content: 'Green tea 4 €' },
      registry: { tools: ['read_page'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    expect(interrupt).toMatchObject({ name: 'browser:read_page', args: {} });
    expect(
      stream
        .ofType('text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('Let me read the page.');
    await client.answer(interrupt.id, { result: { url: '/', title: 'Tea shop', content: 'Green tea 4 €' } });
    const { message } = await stream.until('message');
    expect(message.text).toBe('Let me read the page.\n\nThe page sells green tea.');

    // What went over the wire: the model id, streaming, the tool, the snapshot and then the result.
    expect(upstream.requests).toHaveLength(2);
    const [first, second] = upstream.requests as [
      (typeof upstream.requests)[0],
      (typeof upstream.requests)[0],
    ];
    expect(first.body).toMatchObject({ model: 'llama3.2', stream: true });
    expect(JSON.stringify(first.body.tools)).toContain('"name":"read_page"');
    expect(JSON.stringify(first.body.messages)).toContain('Green tea 4 €');
    const toolMessage = (
      second.body.messages as { role: string; tool_call_id?: string; content?: string }[]
    ).find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_read_1' });
    expect(toolMessage?.content).toContain('Tea shop');
    expect(first.headers.authorization).toBeUndefined();
  });

  it('fails the turn with model_failed and the provider’s message as plain text', async () => {
    upstream = await startChatCompletionsServer([
      { status: 404, body: { error: { message: 'model "nope" not found, try pulling it first' } } },
    ]);
    server = await startHubServer({ hub: { fetchPrivate: true } });
    const assistant = await server.createAssistant({
      name: 'Missing model',
      model: { provider: 'openai-compatible', id: 'nope', baseUrl: upstream.baseUrl },
      allowedOrigins: [server.pageOrigin],
    });
    const { client, conversation, stream } = await server.visit(assistant);
    await client.send(conversation, { text: 'hi' });
    const failed = await stream.until('turn.failed', () => true, 20_000);
    expect(failed.error.code).toBe('model_failed');
    expect(failed.error.message).toContain('not found, try pulling it first');
    // The conversation takes messages again.
    expect((await client.send(conversation, { text: 'again' })).status).toBe(202);
  });
});
