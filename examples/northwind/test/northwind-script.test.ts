import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { ScriptedStep } from '@diosc/server/scripted';
import { describe, expect, it } from 'vitest';
import { northwindScript } from '../demo/northwind-script.js';

const TOOLS = ['navigate', 'read_page', 'highlight_row', 'add_to_cart'];

type Done = [toolName: string, input: Record<string, unknown>, output: LanguageModelV3ToolResultOutput];

/** The model call for `words` after this turn's tools `done` (and earlier turns' `history` calls). */
function step(
  words: string,
  done: Done[] = [],
  options: { history?: Done[]; tools?: string[] } = {},
): ScriptedStep {
  const prompt: LanguageModelV3Prompt = [{ role: 'system', content: 'rules' }];
  const replay = (calls: Done[]) =>
    calls.forEach(([toolName, input, output], index) => {
      const toolCallId = `${toolName}-${index}-${prompt.length}`;
      prompt.push(
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName, output }] },
      );
    });
  if (options.history) {
    prompt.push({ role: 'user', content: [{ type: 'text', text: 'earlier' }] });
    replay(options.history);
  }
  prompt.push({ role: 'user', content: [{ type: 'text', text: words }] });
  replay(done);
  return northwindScript({ prompt, tools: options.tools ?? TOOLS, index: 0 });
}

const json = (value: unknown): LanguageModelV3ToolResultOutput => ({ type: 'json', value: value as never });
/** read_page's HTML of a row as Lit renders it: with its comment markers. */
const ROW =
  '<tr data-id="colombia" class=""><!--?lit$1$--><td><a href="/products/colombia"><!--?lit$1$-->Huila</a></td><td>Coffee</td><td>Huila, Colombia</td><td class="num"><!--?lit$1$-->€10.90</td></tr>';

describe('the scripted Northwind model: one tool a step, each result read before the next', () => {
  it('“show me the cheapest coffee”: navigate, read the first row, highlight it, then say so', () => {
    expect(step('Show me the cheapest coffee')).toEqual({
      toolCalls: [{ toolName: 'navigate', input: { path: '/products?category=coffee&sort=price' } }],
    });
    const navigated: Done = [
      'navigate',
      { path: '/products?category=coffee&sort=price' },
      json({ navigatedTo: '/products?category=coffee&sort=price' }),
    ];
    expect(step('Show me the cheapest coffee', [navigated])).toEqual({
      toolCalls: [{ toolName: 'read_page', input: { selector: '#products tbody tr' } }],
    });
    const read: Done = [
      'read_page',
      { selector: '#products tbody tr' },
      json({ content: 'Huila…', html: ROW }),
    ];
    expect(step('Show me the cheapest coffee', [navigated, read])).toEqual({
      toolCalls: [{ toolName: 'highlight_row', input: { id: 'colombia' } }],
    });
    const highlighted: Done = ['highlight_row', { id: 'colombia' }, json({ highlighted: 'colombia' })];
    expect(step('Show me the cheapest coffee', [navigated, read, highlighted]).text).toBe(
      'The cheapest coffee is **Huila** at €10.90. I highlighted it in the list — say "open it" or "add it to the cart".',
    );
  });

  it('“open it” and “add 3 to my cart” use the product the conversation pointed at', () => {
    const history: Done[] = [['highlight_row', { id: 'colombia' }, json({ highlighted: 'colombia' })]];
    expect(step('open it', [], { history })).toEqual({
      toolCalls: [{ toolName: 'navigate', input: { path: '/products/colombia' } }],
    });
    expect(step('Add 3 to my cart')).toEqual({ toolCalls: [{ toolName: 'read_page', input: {} }] });
    const onProduct: Done = ['read_page', {}, json({ path: '/products/sencha' })];
    expect(step('Add 3 to my cart', [onProduct], { history })).toEqual({
      toolCalls: [{ toolName: 'add_to_cart', input: { productId: 'sencha', quantity: 3 } }],
    });
    const onList: Done = ['read_page', {}, json({ path: '/products' })];
    expect(step('add it to the cart', [onList], { history })).toEqual({
      toolCalls: [{ toolName: 'add_to_cart', input: { productId: 'colombia', quantity: 1 } }],
    });
    expect(step('add it to the cart', [onList]).text).toBe(
      'Which product? Open one first, or ask me for the cheapest tea.',
    );
  });

  it('a refused path is said plainly, the hub’s code in a code span (markdown keeps its underscores)', () => {
    expect(step('go to //evil.example')).toEqual({
      toolCalls: [{ toolName: 'navigate', input: { path: '//evil.example' } }],
    });
    const refused: Done = [
      'navigate',
      { path: '//evil.example' },
      { type: 'error-text', value: 'path_not_in_sitemap: The path "//evil.example" starts with //.' },
    ];
    expect(step('go to //evil.example', [refused]).text).toBe(
      'I can\'t go there — the hub refused the path (`path_not_in_sitemap`) The path "//evil.example" starts with //.',
    );
  });

  it('searches, the cart, checkout; a missing tool and an unknown phrase are explained', () => {
    expect(step('search for green tea').toolCalls).toEqual([
      { toolName: 'navigate', input: { path: '/products?q=green%20tea' } },
    ]);
    expect(step('show me the cart').toolCalls?.[0]?.input).toEqual({ path: '/cart' });
    expect(step('go to checkout').toolCalls?.[0]?.input).toEqual({ path: '/checkout' });
    expect(step('show me the cheapest tea', [], { tools: ['read_page'] }).text).toBe(
      'This page has no navigate tool right now, so I cannot do that here.',
    );
    expect(step('hello there').text).toMatch(/^I am the Northwind scripted demo model, not an AI: .*help/);
    expect(step('help').text).toContain('“show me the cheapest tea (or coffee, cocoa, teaware)”');
  });
});
