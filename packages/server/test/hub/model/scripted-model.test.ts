import { generateText, jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  createScriptedModel,
  SCRIPT_EXHAUSTED_TEXT,
} from '../../../src/hub/model/scripted/scripted-model.js';

const tools = {
  navigate: tool({
    description: 'Go to a path on this site.',
    inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  }),
  read_page: tool({ description: 'Read the page.', inputSchema: jsonSchema({ type: 'object' }) }),
};

describe('scripted model through the AI SDK', () => {
  it('streams text as several deltas, then a tool call the SDK reports in toolCalls', async () => {
    const model = createScriptedModel([
      {
        text: 'Taking you to the products page now.',
        toolCalls: [{ toolName: 'navigate', input: { path: '/products' } }],
      },
    ]);
    const result = streamText({ model, system: 'Be brief.', prompt: 'show me products', tools });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Taking you to the products page now.');
    expect(await result.text).toBe('Taking you to the products page now.');
    const [call] = await result.toolCalls;
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'navigate', input: { path: '/products' } });
    expect(call?.toolCallId).toMatch(/^call_[0-9a-f]{32}$/);
    expect(await result.finishReason).toBe('tool-calls');
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  it('records every call with the prompt exactly as the SDK passed it and the offered tool names', async () => {
    const model = createScriptedModel([{ text: 'Hello.' }]);
    await streamText({ model, system: 'Be brief.', prompt: 'hi', tools }).consumeStream();
    expect(model.calls).toEqual([
      {
        index: 0,
        tools: ['navigate', 'read_page'],
        prompt: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ],
      },
    ]);
    expect(model.provider).toBe('scripted');
    expect(model.specificationVersion).toBe('v3');
  });

  it('serves an array script one step per call, then says it has no more steps', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'read_page', input: {} }] },
      { text: 'Done.' },
    ]);
    const first = streamText({ model, prompt: 'read', tools });
    const [call] = await first.toolCalls;
    expect(await first.finishReason).toBe('tool-calls');
    const messages: ModelMessage[] = [
      { role: 'user', content: 'read' },
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call!.toolCallId,
            toolName: 'read_page',
            output: { type: 'json', value: { title: 'Shop' } },
          },
        ],
      },
    ];
    const second = streamText({ model, messages, tools });
    expect(await second.text).toBe('Done.');
    expect(await second.finishReason).toBe('stop');
    expect(model.calls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: call!.toolCallId,
          output: { type: 'json', value: { title: 'Shop' } },
        },
      ],
    });
    const third = streamText({ model, prompt: 'again', tools });
    expect(await third.text).toBe(SCRIPT_EXHAUSTED_TEXT);
    expect(model.calls.map((recorded) => recorded.index)).toEqual([0, 1, 2]);
  });

  it('lets a function script decide from the call, and may wait before answering', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = createScriptedModel(async (call) => {
      await gate;
      return { text: `call ${call.index} saw ${call.tools.length} tools` };
    });
    const result = streamText({ model, prompt: 'x', tools });
    let settled = false;
    const text = result.text.then((value) => {
      settled = true;
      return value;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release();
    expect(await text).toBe('call 0 saw 2 tools');
  });

  it('answers doGenerate too (generateText), with unique tool-call ids', async () => {
    const step = {
      toolCalls: [
        { toolName: 'navigate', input: { path: '/a' } },
        { toolName: 'navigate', input: { path: '/b' } },
      ],
    };
    const model = createScriptedModel([step]);
    const result = await generateText({ model, prompt: 'go', tools });
    expect(result.toolCalls.map((call) => call.input)).toEqual([{ path: '/a' }, { path: '/b' }]);
    expect(new Set(result.toolCalls.map((call) => call.toolCallId)).size).toBe(2);
    expect(result.finishReason).toBe('tool-calls');
  });

  it('stops streaming when the turn is aborted', async () => {
    const model = createScriptedModel([{ text: 'one two three four five six seven eight' }], {
      chunkDelayMs: 30,
    });
    const controller = new AbortController();
    const result = streamText({ model, prompt: 'x', abortSignal: controller.signal });
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === 'text-delta') {
        deltas.push(part.text);
        controller.abort();
      }
    }
    expect(deltas).toHaveLength(1);
    expect(types).toContain('abort');
    expect(types).not.toContain('finish');
  });
});
