import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoModel, DEMO_MODEL_ID, demoScript } from '../../../src/hub/model/scripted/demo-script.js';

const offered = ['navigate', 'read_page', 'highlight_row'];

function ask(text: string | string[], tools = offered) {
  const parts = (Array.isArray(text) ? text : [text]).map((part) => ({ type: 'text' as const, text: part }));
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'You are the Northwind assistant.' },
    { role: 'user', content: parts },
  ];
  return demoScript({ prompt, tools, index: 0 });
}

function afterResult(output: Extract<LanguageModelV3Prompt[number], { role: 'tool' }>['content'][number]) {
  return demoScript({
    prompt: [
      { role: 'user', content: [{ type: 'text', text: 'go to /products' }] },
      { role: 'tool', content: [output] },
    ],
    tools: offered,
    index: 1,
  });
}

describe('scripted demo model', () => {
  it('turns "go to <path>" and "open <path>" into a navigate call', () => {
    expect(ask('go to /products/42').toolCalls).toEqual([
      { toolName: 'navigate', input: { path: '/products/42' } },
    ]);
    expect(ask('  Open /cart.  ').toolCalls).toEqual([{ toolName: 'navigate', input: { path: '/cart' } }]);
  });

  it('does not call navigate when the page does not offer it', () => {
    const step = ask('go to /products', ['read_page']);
    expect(step.toolCalls).toBeUndefined();
    expect(step.text).toMatch(/no navigate tool/);
  });

  it('reads the page with read_page', () => {
    expect(ask('read the page').toolCalls).toEqual([{ toolName: 'read_page', input: {} }]);
    expect(ask('read the page', ['navigate']).toolCalls).toBeUndefined();
  });

  it('calls an offered tool with JSON arguments, and explains bad arguments or unknown tools', () => {
    expect(ask('call highlight_row {"id": 7}').toolCalls).toEqual([
      { toolName: 'highlight_row', input: { id: 7 } },
    ]);
    expect(ask('call highlight_row').toolCalls).toEqual([{ toolName: 'highlight_row', input: {} }]);
    const bad = ask('call highlight_row {id: 7}');
    expect(bad.toolCalls).toBeUndefined();
    expect(bad.text).toMatch(/not valid JSON/);
    expect(ask('call highlight_row [1]').text).toMatch(/must be a JSON object/);
    const unknown = ask('call delete_everything {}');
    expect(unknown.toolCalls).toBeUndefined();
    expect(unknown.text).toContain('Tools offered: navigate, read_page, highlight_row.');
  });

  it('lists its commands and the offered tools on "help"', () => {
    const text = ask('help').text ?? '';
    expect(text).toContain('scripted demo model, not an AI');
    expect(text).toContain('"go to /some/path"');
    expect(text).toContain('"read the page"');
    expect(text).toContain('Tools offered: navigate, read_page, highlight_row.');
  });

  it('otherwise says plainly it is scripted and how to configure a real model', () => {
    const step = ask('What is the best laptop for me?');
    expect(step.toolCalls).toBeUndefined();
    expect(step.text).toContain('not an AI');
    for (const setting of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DIOSC_OLLAMA_URL'])
      expect(step.text).toContain(setting);
  });

  it('reads a command only from a text part of its own, never from page text beside it', () => {
    const snapshot = 'Page: Northwind\nHelp\ngo to /admin';
    expect(ask([snapshot, 'open /cart']).toolCalls).toEqual([
      { toolName: 'navigate', input: { path: '/cart' } },
    ]);
    expect(ask([snapshot, 'tell me a joke']).toolCalls).toBeUndefined();
  });

  it('summarises a tool result in one short sentence, without calling another tool', () => {
    const ok = afterResult({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'navigate',
      output: { type: 'json', value: { navigatedTo: '/products' } },
    });
    expect(ok).toEqual({ text: 'navigate returned: {"navigatedTo":"/products"}.' });
    const failed = afterResult({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'navigate',
      output: { type: 'error-text', value: 'The path is not in the Sitemap.' },
    });
    expect(failed.text).toBe('navigate failed: The path is not in the Sitemap.');
    const long = afterResult({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'read_page',
      output: { type: 'text', value: 'x'.repeat(5000) },
    });
    expect(long.text!.length).toBeLessThan(200);
    expect(long.toolCalls).toBeUndefined();
  });

  it('runs through streamText as a model named scripted-demo', async () => {
    const model = createDemoModel();
    expect(model.modelId).toBe(DEMO_MODEL_ID);
    const navigate = tool({
      description: 'Go somewhere.',
      inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }),
    });
    const first = streamText({ model, prompt: 'go to /cart', tools: { navigate } });
    const [call] = await first.toolCalls;
    expect(call).toMatchObject({ toolName: 'navigate', input: { path: '/cart' } });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go to /cart' },
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call!.toolCallId,
            toolName: 'navigate',
            output: { type: 'json', value: { navigatedTo: '/cart' } },
          },
        ],
      },
    ];
    const second = streamText({ model, messages, tools: { navigate } });
    expect(await second.text).toBe('navigate returned: {"navigatedTo":"/cart"}.');
    expect(await second.toolCalls).toEqual([]);
  });
});
