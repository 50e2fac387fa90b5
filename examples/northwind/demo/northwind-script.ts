import type { ScriptedCall, ScriptedStep } from '@diosc/server/scripted';
import { readTurn, type TurnSoFar } from '@diosc/server/scripted';

export const NORTHWIND_MODEL_ID = 'northwind';

/** The phrases the scripted Northwind model understands, as the tutorial and `help` list them. */
export const NORTHWIND_PHRASES = [
  'show me the cheapest tea (or coffee, cocoa, teaware)',
  'open it',
  'what is this?',
  'add it to the cart / add 2 to the cart',
  'search for chocolate',
  'show me the cart',
  'go to checkout',
  'go to /some/path (any path: the hub checks it against the Sitemap)',
  'help',
];

const INTRO = 'I am the Northwind scripted demo model, not an AI: I follow a few fixed phrases.';
const REAL_MODEL =
  'For a real model, set ANTHROPIC_API_KEY, OPENAI_API_KEY or DIOSC_OLLAMA_URL and run the example again.';

type Plan = (turn: TurnSoFar) => ScriptedStep;

const call = (toolName: string, input: Record<string, unknown>): ScriptedStep => ({
  toolCalls: [{ toolName, input }],
});

/** The product the conversation last pointed at: a highlighted row, a product page, a cart line. */
function lastProduct(turn: TurnSoFar): string | undefined {
  for (const each of [...turn.calls].reverse()) {
    const input = (each.input ?? {}) as Record<string, unknown>;
    if (each.toolName === 'highlight_row' && typeof input.id === 'string') return input.id;
    if (each.toolName === 'add_to_cart' && typeof input.productId === 'string') return input.productId;
    const path = typeof input.path === 'string' ? /^\/products\/([^/?#]+)/.exec(input.path) : null;
    if (each.toolName === 'navigate' && path) return decodeURIComponent(path[1]!);
  }
  return undefined;
}

/** The first error of this turn, said plainly; the turn ends there. */
function failure(turn: TurnSoFar): ScriptedStep | undefined {
  const failed = turn.results.find((result) => !result.ok);
  if (!failed) return undefined;
  // The hub's refusals read `code: message`; the code goes in a code span so markdown keeps its `_`.
  const [, code, detail] = /^([a-z_]+): ([\s\S]*)$/.exec(failed.error ?? '') ?? [];
  const said = code ? `(\`${code}\`) ${detail}` : (failed.error ?? '');
  return failed.toolName === 'navigate'
    ? { text: `I can't go there — the hub refused the path ${said}` }
    : { text: `${failed.toolName} did not work: ${said}` };
}

/** A row's id, name and price, read from `read_page`'s HTML of that row (Lit's comments removed). */
function rowOf(value: unknown): { id: string; name: string; price: string } | undefined {
  const html = String((value as { html?: unknown })?.html ?? '').replace(/<!--[\s\S]*?-->/g, '');
  const id = /data-id="([^"]+)"/.exec(html)?.[1];
  const name = /<a [^>]*>([^<]+)<\/a>/.exec(html)?.[1];
  const price = /class="num">([^<]+)</.exec(html)?.[1];
  return id && name && price ? { id, name: name.trim(), price: price.trim() } : undefined;
}

const cheapest =
  (category: string): Plan =>
  (turn) => {
    const [, read, highlight] = turn.results;
    const failed = failure(turn);
    if (failed) return failed;
    if (turn.results.length === 0)
      return call('navigate', { path: `/products?category=${category}&sort=price` });
    const row = rowOf(read?.value);
    if (!read) return call('read_page', { selector: '#products tbody tr' });
    if (!row) return { text: `There is no ${category} in the store right now.` };
    if (!highlight) return call('highlight_row', { id: row.id });
    return {
      text: `The cheapest ${category} is **${row.name}** at ${row.price}. I highlighted it in the list — say "open it" or "add it to the cart".`,
    };
  };

const describeProduct: Plan = (turn) => {
  const read = turn.results.find((result) => result.toolName === 'read_page');
  if (!read) return call('read_page', { selector: '#product' });
  if (!read.ok)
    return {
      text: 'This page shows no single product. Say "open it" after I found one, or browse /products.',
    };
  const text = String((read.value as { content?: unknown })?.content ?? '').replace(/\s+/g, ' ');
  return { text: `Here is what the page says: “${text.slice(0, 300)}”` };
};

const openIt: Plan = (turn) => {
  const id = lastProduct(turn);
  if (!id) return { text: 'Which product? Ask me for the cheapest tea first, or search for something.' };
  const failed = failure(turn);
  if (failed) return failed;
  if (turn.results.length === 0) return call('navigate', { path: `/products/${encodeURIComponent(id)}` });
  return describeProduct({ ...turn, results: turn.results.slice(1) });
};

const addIt =
  (quantity: number): Plan =>
  (turn) => {
    const [read, added] = turn.results;
    if (!read) return call('read_page', {});
    const path = String((read.value as { path?: unknown })?.path ?? '');
    const onPage = /^\/products\/([^/?#]+)$/.exec(path)?.[1];
    const id = onPage ? decodeURIComponent(onPage) : lastProduct(turn);
    if (!id) return { text: 'Which product? Open one first, or ask me for the cheapest tea.' };
    if (!added) return call('add_to_cart', { productId: id, quantity });
    if (!added.ok) return { text: `I could not add it: ${added.error}` };
    const value = added.value as {
      added: { name: string; quantity: number };
      cart: { items: number; total: string };
    };
    return {
      text: `Added ${value.added.quantity} × **${value.added.name}** to your cart. It now holds ${value.cart.items} item(s), ${value.cart.total} in total.`,
    };
  };

const goTo =
  (path: string, done: string): Plan =>
  (turn) => {
    const failed = failure(turn);
    if (failed) return failed;
    return turn.results.length === 0 ? call('navigate', { path }) : { text: done };
  };

const help: Plan = () => ({
  text: `${INTRO} Try: ${NORTHWIND_PHRASES.map((phrase) => `“${phrase}”`).join(', ')}. ${REAL_MODEL}`,
});

/** The visitor's words → the plan that answers them (first match wins). */
function planFor(words: string): Plan | undefined {
  const text = words
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .trim();
  let match = /^(?:show me|find|what is) the cheapest (tea|coffee|cocoa|teaware)\??$/.exec(text);
  if (match) return cheapest(match[1]!);
  if (/^(?:open|show me) it$/.test(text)) return openIt;
  if (/^(?:what is this|tell me about (?:it|this)|describe (?:it|this))\??$/.test(text))
    return describeProduct;
  match = /^add (?:(\d+) (?:of them )?)?(?:it |this |one )?to (?:the|my) cart$/.exec(text);
  if (match) return addIt(Math.min(20, Math.max(1, Number(match[1] ?? 1))));
  match = /^search(?: for)? (.+)$/.exec(text);
  if (match) {
    const q = match[1]!.trim();
    return goTo(`/products?q=${encodeURIComponent(q)}`, `Here is what matches “${q}”.`);
  }
  if (/^(?:show me |open |go to )?(?:the |my )?cart$/.test(text)) return goTo('/cart', 'Here is your cart.');
  if (/^(?:go to |take me to )?(?:the )?checkout$/.test(text))
    return goTo(
      '/checkout',
      'Here is the checkout. Fill in your details and press “Place order” — I cannot place orders for you.',
    );
  match = /^(?:go to|open|navigate to) (\S+)$/i.exec(words.trim().replace(/[.!]+$/, ''));
  if (match) return goTo(match[1]!, `Here is ${match[1]}.`);
  if (/^(?:help|\?)$/.test(text)) return help;
  return undefined;
}

/**
 * The scripted model `npm run example -- northwind` runs without a model key: deterministic, named
 * as scripted wherever it is shown, never presented as an AI. It plans like a model would — one
 * tool call a step, reading each result before the next — so the story is the same with a real one.
 */
export function northwindScript(modelCall: ScriptedCall): ScriptedStep {
  const turn = readTurn(modelCall);
  const plan = planFor(turn.text);
  if (!plan) return { text: `${INTRO} Type “help” for the list. ${REAL_MODEL}` };
  const step = plan(turn);
  const missing = step.toolCalls?.find((each) => !turn.offered.has(each.toolName));
  if (missing)
    return { text: `This page has no ${missing.toolName} tool right now, so I cannot do that here.` };
  return step;
}
