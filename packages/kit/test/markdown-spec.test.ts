// @vitest-environment happy-dom
import { HtmlRenderer, type Node, Parser } from 'commonmark';
import { tests as specExamples } from 'commonmark-spec';
import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { markdownParser } from '../src/widget/markdown/markdown-parser.js';
import { renderMarkdown } from '../src/widget/markdown/render-markdown.js';

/**
 * The widget's markdown against CommonMark's reference implementation (commonmark.js), on every
 * example of the specification's sections for the constructs the widget draws. Both outputs are
 * compared as normalized DOM: tags, text, and the attributes that carry meaning (href, title,
 * start). Only the differences the widget makes on purpose are normalized away, each below.
 */
const SECTIONS = ['Emphasis and strong emphasis', 'Code spans', 'Links', 'Autolinks', 'List items', 'Lists'];

/**
 * Why an example is left out, or undefined when it is compared. Each reason is a construct the
 * widget does not support on purpose; the examples are found from the reference's own parse, not
 * listed by hand, so the test cannot quietly skip one that merely fails.
 */
function exclusion(markdown: string, parser: Parser, tree: Node, reference: string): string | undefined {
  // Model text is untrusted: tags are shown as the text they are, never passed through.
  if (reference.includes('raw HTML omitted')) return 'raw HTML';
  // Decoding named references needs the 2,000-name entity table: too big for the kit's budget.
  if (/&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(markdown)) return 'entity reference';
  // `[label]: /url` definitions are not supported: models write inline links.
  if (Object.keys((parser as Parser & { refmap: object }).refmap).length > 0)
    return 'link reference definition';
  if (markdown.includes('\t')) return 'tab stops';
  const walker = tree.walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const { node } = step;
    if (!step.entering) continue;
    if (node.type === 'image') return 'image';
    if (node.type === 'code_block' && !(node as Node & { isFenced: boolean }).isFenced)
      return 'indented code block';
    if (node.type === 'heading' && !/^ {0,3}#/.test(markdown.split('\n')[node.sourcepos[0][0] - 1] ?? ''))
      return 'setext heading';
    // GFM's extension: the widget links a bare http(s) URL, CommonMark leaves it as text.
    if (node.type === 'text' && /https?:\/\//.test(node.literal ?? '') && node.parent?.type !== 'link')
      return 'bare URL';
  }
  return undefined;
}

/** A URL as resolved and decoded: `]` and `%5D` in a query lead to the same place. */
function sameUrl(href: string): string {
  const resolved = new URL(href, location.href).href;
  try {
    return decodeURI(resolved);
  } catch {
    return resolved;
  }
}

const BLOCKS = new Set([
  'P',
  'UL',
  'OL',
  'LI',
  'BLOCKQUOTE',
  'PRE',
  'HR',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
]);

/** A tree as comparable text: tags, text, and the attributes that carry meaning. */
function normalize(node: globalThis.Node, inPre = false): string {
  if (node.nodeType === 3) {
    const text = node.textContent ?? '';
    return inPre ? text : text.replace(/^\n+|\n+$/g, '');
  }
  if (node.nodeType !== 1) return '';
  const element = node as Element;
  const children = [...element.childNodes].map((child) =>
    normalize(child, inPre || element.tagName === 'PRE'),
  );
  let tag = element.tagName.toLowerCase();
  // The widget draws headings as role="heading" paragraphs two levels down (the page owns h1–h2).
  if (element.getAttribute('role') === 'heading') tag = `h${Number(element.getAttribute('aria-level')) - 2}`;
  const attributes = [
    ['href', element.hasAttribute('href') ? sameUrl(element.getAttribute('href')!) : null],
    ['title', element.getAttribute('title')],
    ['start', element.getAttribute('start')],
  ]
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${value}"`)
    .join('');
  const block = BLOCKS.has(element.tagName);
  return `${block ? '\n' : ''}<${tag}${attributes}>${children.join('')}</${tag}>`;
}

function widgetHtml(markdown: string): string {
  const host = document.createElement('div');
  // Links off the page's origin are text unless an assistant allows them: the spec's are allowed here.
  render(renderMarkdown(markdown, markdownParser, { outsideLinks: true }), host);
  return [...host.childNodes].map((child) => normalize(child)).join('');
}

function referenceHtml(html: string): string {
  const host = document.createElement('div');
  host.innerHTML = html;
  // The widget makes links only for http(s) and mailto: the reference's others count as their text.
  for (const link of host.querySelectorAll('a')) {
    if (!/^(https?|mailto):/i.test(new URL(link.getAttribute('href') ?? '', location.href).href))
      link.replaceWith(...link.childNodes);
  }
  return [...host.childNodes].map((child) => normalize(child)).join('');
}

// Chat text is written line by line: the widget keeps every line break, so the reference is asked
// to draw soft breaks as <br /> too.
const reference = new HtmlRenderer({ safe: true, softbreak: '<br />' });
const examples = specExamples
  .filter((example) => SECTIONS.includes(example.section))
  .map((example) => {
    const markdown = example.markdown.replace(/→/g, '\t');
    const parser = new Parser();
    const tree = parser.parse(markdown);
    const html = reference.render(tree);
    return { ...example, markdown, html, excluded: exclusion(markdown, parser, tree, html) };
  });

describe('the widget’s markdown agrees with CommonMark’s reference implementation', () => {
  it('compares most of the chosen sections’ examples (exclusions cannot quietly grow)', () => {
    const compared = examples.filter((example) => !example.excluded);
    expect(examples.length).toBe(337);
    expect(compared.length).toBeGreaterThanOrEqual(250);
  });

  for (const example of examples.filter((each) => !each.excluded)) {
    it(`spec example ${example.number} (${example.section})`, () => {
      expect(widgetHtml(example.markdown), JSON.stringify(example.markdown)).toBe(
        referenceHtml(example.html),
      );
    });
  }
});
