import { html, nothing, type TemplateResult } from 'lit';
import type { LinkPolicy } from './link-view.js';
import { type Block, parseBlocks } from './parse-blocks.js';
import { parseInline } from './parse-inline.js';
import { renderInline } from './render-inline.js';

/**
 * Markdown for model and tool text, rendered straight to Lit templates: every piece of text goes
 * through a text binding, so no input is ever parsed as HTML (raw `<tags>` show as text), and a
 * link is made only for http(s) and mailto URLs — never `javascript:` or `data:` — and leads off the
 * page's origin in one click only when `links.outsideLinks` allows it. What it draws
 * agrees with CommonMark's reference implementation on the specification's own examples
 * (`packages/kit/test/markdown-spec.test.ts`).
 *
 * @example render(renderMarkdown('Set `ANTHROPIC_API_KEY`, then call read_page.'), host)
 */
export function renderMarkdown(text: string, links: LinkPolicy = { outsideLinks: false }): TemplateResult[] {
  return renderBlocks(parseBlocks(text.replace(/\r\n?/g, '\n').split('\n')), false, links);
}

function renderBlocks(blocks: Block[], tight: boolean, links: LinkPolicy): TemplateResult[] {
  return blocks.map((block) => blockView(block, tight, links));
}

function blockView(block: Block, tight: boolean, links: LinkPolicy): TemplateResult {
  const inline = (text: string) => renderInline(parseInline(text), links);
  switch (block.kind) {
    case 'paragraph':
      // A tight list's items hold their text without a paragraph around it, as CommonMark does.
      return tight ? html`${inline(block.text)}` : html`<p>${inline(block.text)}</p>`;
    case 'heading':
      return html`<p class="md-h${Math.min(block.level, 3)}" role="heading" aria-level=${block.level + 2}>${inline(block.text)}</p>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    case 'quote':
      return html`<blockquote>${renderBlocks(block.children, false, links)}</blockquote>`;
    case 'rule':
      return html`<hr />`;
    case 'list': {
      const items = block.items.map((item) => html`<li>${renderBlocks(item, block.tight, links)}</li>`);
      return block.ordered
        ? html`<ol start=${block.start === 1 ? nothing : block.start}>${items}</ol>`
        : html`<ul>${items}</ul>`;
    }
  }
}
