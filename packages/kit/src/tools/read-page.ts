/** `read_page` without a selector stops here: context for the model, not a copy of the page. */
export const READ_PAGE_MAX_CHARS = 5_000;
/** Cap on the `html` of a selected element (the answer itself is capped at 64 KiB). */
export const READ_PAGE_MAX_HTML = 20_000;

/** How deep shadow roots and slots inside each other are followed (a page could nest them without end). */
const MAX_SHADOW_DEPTH = 32;

/** Elements whose content is never page text (or is not text at all). */
const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IMG',
  'SVG',
  'IFRAME',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'OBJECT',
  'EMBED',
  'PICTURE',
  'MAP',
  'HEAD',
  'SELECT',
  'DATALIST',
  'DIOSC-WIDGET',
]);
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
  'DETAILS',
  'OPTION',
]);
const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'number', '']);

type Visible = (element: Element, text?: boolean) => boolean;

/** The parent a node is drawn in: its slot when it is slotted, a shadow root's host for its top level. */
function drawnParent(node: Text | Element): Element | null {
  return node.assignedSlot ?? node.parentElement ?? (node.parentNode as ShadowRoot | null)?.host ?? null;
}

/** `checkVisibility` where the browser has it; computed style otherwise (DOM shims). */
function visibilityCheck(): Visible {
  const probe = document.documentElement as Element & { checkVisibility?: unknown };
  if (typeof probe.checkVisibility === 'function') {
    return (element, text) =>
      text
        ? element.checkVisibility({ visibilityProperty: true, opacityProperty: true })
        : element.checkVisibility() || getComputedStyle(element).display === 'contents';
  }
  return (element, text) => {
    const style = getComputedStyle(element);
    if (style.display === 'none') return false;
    return !text || (style.visibility !== 'hidden' && style.opacity !== '0');
  };
}

function rejected(element: Element, visible: Visible): boolean {
  if (SKIPPED.has(element.tagName.toUpperCase())) return true;
  if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden')) return true;
  if (element.hasAttribute('data-diosc-ignore')) return true;
  return !visible(element);
}

/**
 * After the answer is full, how many more nodes (elements and text nodes, as the read visits them)
 * the same walk may go on to count the rest of the page's text. A count of nodes, not a time limit,
 * so the same page always gets the same answer. Read and count are one walk, so what is counted is
 * exactly what a longer answer would hold (shadow roots, slots and exclusions alike). 500 nodes
 * (about 1 µs each on the bench's pages, some 4,000 characters there) cost what walking without a
 * NodeFilter saved, so read_page counts for the price it read at before: docs/api/kit.md.
 */
export const READ_PAGE_COUNT_NODES = 500;

/** What one read found: the text (up to `max`), and how long the whole text is, as far as it was counted. */
interface Reading {
  text: string;
  /** The whole text's length when `complete`; otherwise the length of the part counted so far. */
  length: number;
  /** The walk reached the end, so `length` is exact. */
  complete: boolean;
}

/** Nodes the count may still visit after an answer is full; shared by the reads of one answer. */
interface CountBudget {
  nodes: number;
}

/**
 * The page's visible text as it is drawn: TreeWalkers that skip hidden, `aria-hidden`, script/
 * style/img/svg/iframe (…) subtrees whole, read open shadow roots in place and slots as what is
 * assigned to them, read text-like input values (never passwords), and stop collecting as soon as
 * `max` characters are collected — so the cost depends on the text returned, not the page size.
 * After that the same walk only counts, for at most `budget.nodes` more nodes.
 */
function readVisible(root: Element, max: number, skip: Element | undefined, budget: CountBudget): Reading {
  const visible = visibilityCheck();
  const parts: string[] = [];
  let length = 0;
  let gap = '';
  let block: Element | null = null;
  /** Out of count budget: what is known is a lower bound. */
  let stopped = false;
  /** One more node visited; past `max` it spends the count budget. */
  const step = () => {
    if (length < max) return true;
    if (budget.nodes <= 0) stopped = true;
    else budget.nodes--;
    return !stopped;
  };
  const push = (text: string) => {
    const full = length >= max;
    if (length > 0 && gap) {
      if (!full) parts.push(gap);
      length += gap.length;
    }
    gap = '';
    if (!full) parts.push(text);
    length += text.length;
  };
  /** A change of block ancestor between two pieces of text is a line break. */
  const enter = (node: Text | Element) => {
    let element = drawnParent(node);
    while (element && element !== root && !BLOCKS.has(element.tagName)) element = drawnParent(element);
    if (element !== block) gap = '\n';
    block = element;
  };
  const accept = (element: Element) => element !== skip && !rejected(element, visible);
  // Text nodes side by side (words and the whitespace between elements) share a parent: one check.
  let checkedParent: Element | null = null;
  let parentShows = false;
  const shows = (parent: Element) => {
    if (parent !== checkedParent) [checkedParent, parentShows] = [parent, visible(parent, true)];
    return parentShows;
  };
  const readText = (node: Text) => {
    // Text slotted straight into a host, or a slot's fallback: the slot draws nothing itself.
    let parent: Element | null = node.parentElement;
    if (parent?.tagName === 'SLOT')
      parent = parent.parentElement ?? (parent.getRootNode() as ShadowRoot).host ?? null;
    const text = node.data.replace(/\s+/g, ' ');
    if (text === '' || !parent || !shows(parent)) return;
    if (text === ' ') {
      gap ||= ' ';
      return;
    }
    enter(node);
    if (text.startsWith(' ')) gap ||= ' ';
    push(text.trim());
    if (text.endsWith(' ')) gap = ' ';
  };
  const readLeaf = (element: Element) => {
    if (element.tagName === 'BR') gap = '\n';
    else if (element.tagName === 'INPUT') {
      const input = element as HTMLInputElement;
      if (TEXT_INPUTS.has(input.type) && input.value && visible(input, true)) {
        enter(input);
        push(input.value);
      }
    }
  };
  /**
   * The rendered (flat) tree under `top`, in document order: an open shadow root is read in place of
   * its host's children, and a slot as the nodes assigned to it (its fallback when none are).
   * `depth` bounds the nesting of shadow roots and slots a page can make the walk follow.
   */
  const walk = (top: Node, depth: number): void => {
    // No NodeFilter: a filter is a call from the browser into JavaScript for every node, which cost
    // more than all the checks it made (docs/api/kit.md). A rejected element is skipped here instead.
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && step()) {
      if (node.nodeType === Node.TEXT_NODE) {
        readText(node as Text);
        node = walker.nextNode();
        continue;
      }
      const element = node as Element;
      if (accept(element)) {
        readLeaf(element);
        const assigned = element.tagName === 'SLOT' ? (element as HTMLSlotElement).assignedNodes() : [];
        if (!element.shadowRoot && assigned.length === 0) {
          node = walker.nextNode();
          continue;
        }
        if (depth < MAX_SHADOW_DEPTH) {
          if (element.shadowRoot) walk(element.shadowRoot, depth + 1);
          for (const slotted of assigned) {
            if (stopped || !step()) break;
            if (slotted.nodeType === Node.TEXT_NODE) readText(slotted as Text);
            else if (slotted.nodeType === Node.ELEMENT_NODE && accept(slotted as Element)) {
              readLeaf(slotted as Element);
              walk(slotted, depth + 1);
            }
          }
        }
        if (stopped) break;
      }
      // Past the element's subtree: a rejected one is skipped whole, a host's light children are
      // drawn only through its slots, and a slot's own children are its fallback.
      node = walker.nextSibling();
      while (!node && walker.parentNode()) node = walker.nextSibling();
    }
  };
  walk(root, 0);
  return { text: parts.join('').slice(0, max), length, complete: !stopped };
}

/** The page's visible text as it is drawn, up to `max` characters (see `readVisible`). */
export function visibleText(root: Element, max = READ_PAGE_MAX_CHARS, skip?: Element): string {
  return readVisible(root, max, skip, { nodes: 0 }).text;
}

/**
 * How far the main content is looked for: the page's outer levels only, where layouts put it. A
 * search of the whole document costs more than reading it on a large page.
 */
const MAIN_SEARCH_DEPTH = 5;
const MAIN_SEARCH_ELEMENTS = 400;

/** The page's main content: `<main>` or `role=main`, else its largest `<article>`, near the top. */
function mainContent(root: Element): Element | null {
  const articles: Element[] = [];
  const queue: [Element, number][] = [[root, 0]];
  for (let i = 0; i < queue.length; i++) {
    const [element, depth] = queue[i]!;
    if (element !== root) {
      if (element.tagName === 'MAIN' || element.getAttribute('role') === 'main') return element;
      if (element.tagName === 'ARTICLE') {
        articles.push(element);
        continue;
      }
    }
    if (depth >= MAIN_SEARCH_DEPTH || SKIPPED.has(element.tagName)) continue;
    for (const child of element.children) {
      if (queue.length >= MAIN_SEARCH_ELEMENTS) break;
      queue.push([child, depth + 1]);
    }
  }
  // One article is the main content; of several, the one with the most text.
  if (articles.length < 2) return articles[0] ?? null;
  let largest: Element | null = null;
  let size = -1;
  for (const article of articles) {
    const length = article.textContent?.length ?? 0;
    if (length > size) [largest, size] = [article, length];
  }
  return largest;
}

/** Cut at `max` characters, back to the last word boundary when there is one in the last 80. */
function cutAtWord(text: string, max: number): string {
  const cut = text.slice(0, max);
  const space = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'));
  return `${space > max - 80 ? cut.slice(0, space) : cut}…`;
}

/** `read_page`'s answer without a selector. */
export interface PageText {
  content: string;
  /** There was more visible text than `content` holds. */
  truncated?: true;
  /** With `truncated`: the length of all the page's visible text, counted to the end. */
  totalChars?: number;
  /** With `truncated`, instead of `totalChars`: the count stopped, and there were at least this many characters. */
  totalCharsAtLeast?: number;
}

/**
 * What `read_page` answers without a selector: the main content first (`<main>`, `role=main` or
 * the largest article), then the rest of the page in document order, so navigation, asides and
 * footers get what the main content left of the budget. When that was not all, it says so, and how
 * much there was: the walk goes on counting for `countNodes` more nodes; `totalChars` when it got to
 * the end, else `totalCharsAtLeast` with what it counted — never more than there is (docs/api/kit.md).
 * A total is the length the answer would have had with no cut.
 *
 * @example
 * pageText(document.body); // { content: 'Teas\nAssam …', truncated: true, totalChars: 7412 }
 */
export function pageText(
  root: Element,
  max = READ_PAGE_MAX_CHARS,
  countNodes = READ_PAGE_COUNT_NODES,
): PageText {
  const budget: CountBudget = { nodes: countNodes };
  const main = mainContent(root);
  let content: string;
  let total: Omit<Reading, 'text'>;
  if (main && main !== root && !rejected(main, visibilityCheck())) {
    // One character more than fits is enough to know the page had more.
    const first = readVisible(main, max + 1, undefined, budget);
    // The rest gets what the main content left, at least one character while the main content is not
    // over `max` (so that a rest there is, is seen), else none: it is then only counted.
    const room = first.text.length <= max ? Math.max(1, max - first.text.length - 1) : 0;
    const rest: Reading = first.complete
      ? readVisible(root, room, main, budget)
      : { text: '', length: 0, complete: false };
    content = rest.text ? `${first.text}\n\n${rest.text}` : first.text;
    total = { length: first.length + (rest.length > 0 ? 2 + rest.length : 0), complete: rest.complete };
  } else {
    const whole = readVisible(root, max + 1, undefined, budget);
    [content, total] = [whole.text, whole];
  }
  if (content.length <= max) return { content };
  const cut = cutAtWord(content, max);
  return total.complete
    ? { content: cut, truncated: true, totalChars: total.length }
    : { content: cut, truncated: true, totalCharsAtLeast: total.length };
}

/**
 * The selected element's trimmed text and HTML (password values removed from the copy). A cut says
 * so, with the whole length: both are already in hand here, so the count costs nothing.
 */
export function readElement(
  selector: string,
):
  | { content: string; html: string; truncated?: true; totalChars?: number; totalHtmlChars?: number }
  | { error: string } {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { error: `"${selector}" is not a valid CSS selector` };
  }
  if (!element) return { error: `No element matches "${selector}"` };
  const copy = element.cloneNode(true) as Element;
  for (const input of [copy, ...copy.querySelectorAll('input')]) {
    if (input.tagName === 'INPUT' && (input as HTMLInputElement).type === 'password')
      input.removeAttribute('value');
  }
  const text = (element.textContent ?? '').trim();
  const html = copy.outerHTML;
  const textCut = text.length > READ_PAGE_MAX_CHARS;
  const htmlCut = html.length > READ_PAGE_MAX_HTML;
  return {
    content: textCut ? cutAtWord(text, READ_PAGE_MAX_CHARS) : text,
    html: html.slice(0, READ_PAGE_MAX_HTML),
    ...(textCut || htmlCut ? { truncated: true as const } : {}),
    ...(textCut ? { totalChars: text.length } : {}),
    ...(htmlCut ? { totalHtmlChars: html.length } : {}),
  };
}

/** The built-in `read_page`: `{ content, html }` for a selector, else `{ url, path, title, content }`. */
export function readPage(params: Record<string, unknown>): unknown {
  const selector = params.selector;
  if (selector !== undefined && (typeof selector !== 'string' || selector.trim() === ''))
    return { error: 'selector must be a non-empty CSS selector string' };
  if (typeof selector === 'string') return readElement(selector);
  return {
    url: location.href,
    path: location.pathname + location.search,
    title: document.title,
    ...pageText(document.body ?? document.documentElement),
  };
}
