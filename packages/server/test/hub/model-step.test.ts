import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { convertToLanguageModelPrompt } from 'ai/internal';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from '../../src/hub/outbound/secret-redactor.js';
import type { StoredMessage } from '../../src/hub/store/conversations.js';
import { modelPrompt } from '../../src/hub/turns/model-prompt.js';
import { runModelStep } from '../../src/hub/turns/model-step.js';
import { offeredTools } from '../../src/hub/turns/offered-tools.js';
import { buildPrompt, SNAPSHOT_PLACEHOLDER } from '../../src/hub/turns/prompt.js';

/** A history with every part the hub stores: text, images, reasoning, calls, each kind of result. */
const HISTORY: ModelMessage[] = [
  { role: 'user', content: 'Show me the open orders.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'And this picture.' },
      { type: 'text', text: '' },
      { type: 'image', image: new Uint8Array([1, 2, 3]), mediaType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Look first.', providerOptions: { openai: { itemId: 'rs_1' } } },
      { type: 'text', text: '' },
      { type: 'text', text: 'Reading the page.', providerOptions: { openai: { itemId: 'msg_1' } } },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_page', input: {} },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'browser_apply', input: { id: 7 } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'read_page',
        output: { type: 'json', value: { ok: 1 } },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_2',
        toolName: 'browser_apply',
        output: { type: 'execution-denied', reason: 'declined' },
      },
    ],
  },
  { role: 'assistant', content: 'Done.' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call_3', toolName: 'x', input: {} }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_3',
        toolName: 'x',
        output: { type: 'error-text', value: 'tool_failed: no' },
      },
    ],
  },
];

describe('the model prompt, converted once per message', () => {
  it('is what the AI SDK’s own conversion gives for the same system and messages', async () => {
    const ours = modelPrompt('You are a test.', HISTORY);
    const sdk = await convertToLanguageModelPrompt({
      prompt: { system: 'You are a test.', messages: HISTORY },
      supportedUrls: {},
      download: undefined,
    });
    // The SDK writes `providerOptions: undefined` where we leave the key out; the values are the same.
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(sdk)));
    expect(ours[2]!.content).toEqual(sdk[2]!.content);
  });

  it('converts a message object once: a later prompt reuses every message it already converted', () => {
    const first = modelPrompt('s', HISTORY.slice(0, 3));
    const second = modelPrompt('s', HISTORY.slice(0, 4));
    expect(second.slice(1, 4)).toEqual(first.slice(1, 4));
    for (let index = 1; index < 4; index++) expect(second[index]).toBe(first[index]);
  });

  it('keeps each stored message’s rendering: only the snapshot that stopped being newest changes', () => {
    const snapshot = { url: 'https://shop.example/a', title: 'A', content: 'Page A' };
    const stored = (seq: number, content: ModelMessage, withSnapshot = false): StoredMessage => ({
      id: `msg_${seq}`,
      seq,
      turnId: 't',
      role: content.role as StoredMessage['role'],
      content,
      snapshot: withSnapshot ? { ...snapshot, content: `Page ${seq}` } : null,
      files: [],
      createdAt: 0,
      storedChars: 0,
    });
    const history = [
      stored(1, { role: 'user', content: 'one' }, true),
      stored(2, { role: 'assistant', content: 'ok' }),
    ];
    const before = buildPrompt(history);
    const after = buildPrompt([...history, stored(3, { role: 'user', content: 'two' }, true)]);
    expect(after[1]).toBe(before[1]);
    expect(after[0]).not.toBe(before[0]);
    expect(JSON.stringify(before[0])).toContain('Page 1');
    expect(JSON.stringify(after[0])).toContain(SNAPSHOT_PLACEHOLDER);
    expect(JSON.stringify(after[2])).toContain('Page 3');
    // The next step with nothing new hands the model layer the very same objects.
    const again = buildPrompt([...history, stored(3, { role: 'user', content: 'two' }, true)]);
    expect(again[0]).toBe(after[0]);
  });
});

/** A provider model that streams the given parts (a scripted stand-in, as every model in tests). */
function streaming(
  parts: LanguageModelV3StreamPart[],
  failures: unknown[] = [],
): LanguageModelV3 & { calls: number } {
  const model = {
    specificationVersion: 'v3' as const,
    provider: 'scripted',
    modelId: 'scripted-stream',
    supportedUrls: {},
    calls: 0,
    doGenerate: () => Promise.reject(new Error('not used')),
    async doStream() {
      model.calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  return model;
}

const USAGE = {
  inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

async function step(model: LanguageModelV3, secrets: string[] = []) {
  const deltas: string[] = [];
  const tools = offeredTools(
    { browserTools: [], sitemap: [], serverTools: { consensus: {} } } as never,
    { tools: ['read_page'], intents: [] } as never,
    [],
  );
  const result = await runModelStep({
    model,
    prompt: modelPrompt('s', [{ role: 'user', content: 'hi' }]),
    tools,
    signal: new AbortController().signal,
    redactor: createSecretRedactor(secrets),
    onDelta: async (delta) => {
      deltas.push(delta);
    },
  });
  return { result, deltas };
}

describe('one model step, straight on the provider model', () => {
  it('keeps text blocks, reasoning with its provider metadata, and each call with parsed arguments', async () => {
    const { result, deltas } = await step(
      streaming([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r', providerMetadata: { openai: { itemId: 'rs_9' } } },
        { type: 'reasoning-delta', id: 'r', delta: 'think' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: 'Hel' },
        { type: 'text-delta', id: 'a', delta: 'lo.' },
        { type: 'text-end', id: 'a', providerMetadata: { openai: { itemId: 'msg_9' } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_page', input: '{"selector":"main"}' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'read_page', input: '' },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'read_page', input: '{"broken' },
        { type: 'tool-call', toolCallId: 'c4', toolName: 'read_page', input: '{"__proto__":{"x":1}}' },
        { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
      ]),
    );
    expect(deltas.join('')).toBe('Hello.');
    expect(result.text).toBe('Hello.');
    expect(result.finishReason).toBe('tool-calls');
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(result.toolCalls).toEqual([
      { toolCallId: 'c1', toolName: 'read_page', input: { selector: 'main' } },
      { toolCallId: 'c2', toolName: 'read_page', input: {} },
      // Unparsable arguments stay text for the hub to refuse; prototype keys are never parsed.
      { toolCallId: 'c3', toolName: 'read_page', input: '{"broken' },
      { toolCallId: 'c4', toolName: 'read_page', input: '{"__proto__":{"x":1}}' },
    ]);
    expect(result.assistantMessage).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'think', providerOptions: { openai: { itemId: 'rs_9' } } },
        { type: 'text', text: 'Hello.', providerOptions: { openai: { itemId: 'msg_9' } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_page', input: { selector: 'main' } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'read_page', input: {} },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'read_page', input: {} },
        { type: 'tool-call', toolCallId: 'c4', toolName: 'read_page', input: {} },
      ],
    });
  });

  it('passes the provider’s text and arguments through the redactor, a secret split across deltas included', async () => {
    const secret = 'sk-test-0123456789abcdef';
    const { result, deltas } = await step(
      streaming([
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: `key ${secret.slice(0, 9)}` },
        { type: 'text-delta', id: 'a', delta: `${secret.slice(9)} end` },
        { type: 'text-end', id: 'a' },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'read_page',
          input: JSON.stringify({ selector: secret }),
        },
        { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: undefined } },
      ]),
      [secret],
    );
    expect(deltas.join('')).not.toContain(secret.slice(4));
    expect(result.text).not.toContain(secret.slice(4));
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('throws the provider’s error part after the stream, and a failed call without retrying a final error', async () => {
    await expect(
      step(
        streaming([
          { type: 'text-start', id: 'a' },
          { type: 'error', error: new Error('overloaded') },
        ]),
      ),
    ).rejects.toThrow('overloaded');
    const refused = new APICallError({
      message: 'bad request',
      url: 'http://model.test',
      requestBodyValues: {},
      statusCode: 400,
      isRetryable: false,
    });
    const model = streaming([], [refused]);
    await expect(step(model)).rejects.toBe(refused);
    expect(model.calls).toBe(1);
  });

  it('retries a retryable failure once, as the AI SDK does', async () => {
    const busy = new APICallError({
      message: 'busy',
      url: 'http://model.test',
      requestBodyValues: {},
      statusCode: 503,
      isRetryable: true,
    });
    const model = streaming(
      [
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: 'ok' },
        { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      [busy],
    );
    const { result } = await step(model);
    expect(model.calls).toBe(2);
    expect(result.text).toBe('ok');
    expect(result.assistantMessage).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
  });
});
