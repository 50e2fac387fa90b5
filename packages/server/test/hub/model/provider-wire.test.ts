import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../../src/hub/model/model-spec.js';
import { resolveModel } from '../../../src/hub/model/resolve-model.js';
import {
  type ChatCompletionsServer,
  startChatCompletionsServer,
  streamedReply,
} from './chat-completions-server.js';

const KEY = 'sk-loopback-0a1b2c3d4e5f';
const navigateSchema = {
  type: 'object',
  properties: { path: { type: 'string', description: 'A path from the Sitemap.' } },
  required: ['path'],
  additionalProperties: false,
} as const;
// A browser tool: no `execute`, so the step ends at the call and the hub interrupts the turn.
const tools = {
  navigate: tool({ description: 'Go to a page of this site.', inputSchema: jsonSchema(navigateSchema) }),
};

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases: {
  name: string;
  spec: (baseUrl: string) => ModelSpec;
  apiKey?: string;
  env: Record<string, string>;
  /** The Authorization header the server must see (none for a keyless local server). */
  authorization: string | undefined;
}[] = [
  {
    name: 'openai-compatible, no key (Ollama)',
    spec: (baseUrl) => ({ provider: 'openai-compatible', id: 'llama3.2', baseUrl }),
    // OPENAI_API_KEY is set, and must not be sent to a server that is not OpenAI.
    env: { OPENAI_API_KEY: KEY },
    authorization: undefined,
  },
  {
    name: 'openai-compatible, stored key (vLLM)',
    spec: (baseUrl) => ({ provider: 'openai-compatible', id: 'llama3.2', baseUrl }),
    apiKey: KEY,
    env: {},
    authorization: `Bearer ${KEY}`,
  },
  {
    name: '@ai-sdk/openai chat API, stored key',
    spec: (baseUrl) => ({ provider: 'openai', id: 'llama3.2', baseUrl }),
    apiKey: KEY,
    env: { OPENAI_API_KEY: 'sk-env-must-not-be-sent' },
    authorization: `Bearer ${KEY}`,
  },
];

describe('real providers over loopback HTTP (Chat Completions streaming wire)', () => {
  for (const testCase of cases) {
    it(`${testCase.name}: streams text and a tool call, then continues after the tool result`, async () => {
      server = await startChatCompletionsServer([
        {
          chunks: streamedReply('llama3.2', {
            text: ['Sure', ', taking you', ' there.'],
            toolCall: { id: 'call_7', name: 'navigate', arguments: { path: '/products/42' } },
          }),
        },
        { chunks: streamedReply('llama3.2', { text: ['You are on ', 'product 42.'] }) },
      ]);
      const { model } = resolveModel(testCase.spec(server.baseUrl), {
        env: testCase.env,
        apiKey: testCase.apiKey,
      });
      const first = streamText({ model, system: 'You help shoppers.', prompt: 'show me product 42', tools });
      const deltas: string[] = [];
      for await (const part of first.fullStream) {
        if (part.type === 'text-delta') deltas.push(part.text);
        if (part.type === 'error') throw part.error;
      }
      expect(deltas).toEqual(['Sure', ', taking you', ' there.']);
      expect(await first.toolCalls).toMatchObject([
        { type: 'tool-call', toolCallId: 'call_7', toolName: 'navigate', input: { path: '/products/42' } },
      ]);
      expect(await first.finishReason).toBe('tool-calls');
      expect((await first.usage).inputTokens).toBe(42);

      const [request] = server.requests;
      expect(request).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
      expect(request?.body).toMatchObject({
        model: 'llama3.2',
        stream: true,
        messages: [
          { role: 'system', content: 'You help shoppers.' },
          { role: 'user', content: 'show me product 42' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'navigate',
              description: 'Go to a page of this site.',
              parameters: navigateSchema,
            },
          },
        ],
      });
      expect(request?.headers.authorization).toBe(testCase.authorization);

      // Result-only continuation on the hub's side becomes a full history on the provider's wire.
      const messages: ModelMessage[] = [
        { role: 'user', content: 'show me product 42' },
        ...(await first.response).messages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_7',
              toolName: 'navigate',
              output: { type: 'json', value: { navigatedTo: '/products/42' } },
            },
          ],
        },
      ];
      const second = streamText({ model, system: 'You help shoppers.', messages, tools });
      expect(await second.text).toBe('You are on product 42.');
      expect(await second.finishReason).toBe('stop');
      expect(server.requests[1]?.body.messages).toEqual([
        { role: 'system', content: 'You help shoppers.' },
        { role: 'user', content: 'show me product 42' },
        {
          role: 'assistant',
          content: 'Sure, taking you there.',
          tool_calls: [
            {
              id: 'call_7',
              type: 'function',
              function: { name: 'navigate', arguments: '{"path":"/products/42"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_7', content: '{"navigatedTo":"/products/42"}' },
      ]);
    });
  }

  it('a provider refusal surfaces as an error that does not carry the key', async () => {
    server = await startChatCompletionsServer([
      {
        status: 401,
        body: { error: { message: 'Invalid API key provided.', type: 'invalid_request_error' } },
      },
    ]);
    const { model } = resolveModel(
      { provider: 'openai-compatible', id: 'llama3.2', baseUrl: server.baseUrl },
      { env: {}, apiKey: KEY },
    );
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    const error = errors[0] as Error & { statusCode?: number };
    expect(error.statusCode).toBe(401);
    expect(error.message).toContain('Invalid API key provided.');
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
  });

  it('@ai-sdk/openai 3.x defaults to the Responses API, which is why resolveModel uses openai.chat(id)', async () => {
    server = await startChatCompletionsServer([]);
    const model = createOpenAI({ apiKey: KEY, baseURL: server.baseUrl })('gpt-4o-mini');
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
    for await (const part of result.fullStream) if (part.type === 'error') break;
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/responses']);
  });
});
