import { html, nothing, type TemplateResult } from 'lit';
import type { LinkPolicy } from './link-view.js';
import type { MarkdownParser } from './markdown-parser.js';
import type { Block } from './parse-blocks.js';
import { renderInline } from './render-inline.js';

/**
 * Markdown for model and tool text, rendered straight to Lit templates: every piece of text goes
 * through a text binding, so no input is ever parsed as HTML (raw `<tags>` show as text), and a
 * link is made only for http(s) and mailto URLs — never `javascript:` or `data:` — and leads off the
 * page's origin in one click only when `links.outsideLinks` allows it. What it draws
 * agrees with CommonMark's reference implementation on the specification's own examples
 * (`packages/kit/test/markdown-spec.test.ts`).
 *
 * @example render(renderMarkdown('Set `ANTHROPIC_API_KEY`, then call read_page.', markdownParser), host)
 */
export function renderMarkdown(
  text: string,
  parser: MarkdownParser,
  links: LinkPolicy = { outsideLinks: false },
): TemplateResult[] {
  const blocks = parser.parseBlocks(text.replace(/\r\n?/g, '\n').split('\n'));
  return renderBlocks(blocks, false, { links, parser });
}

interface RenderContext {
  links: LinkPolicy;
  parser: MarkdownParser;
}

function renderBlocks(blocks: Block[], tight: boolean, context: RenderContext): TemplateResult[] {
  return blocks.map((block) => blockView(block, tight, context));
}

function blockView(block: Block, tight: boolean, context: RenderContext): TemplateResult {
  const inline = (text: string) => renderInline(context.parser.parseInline(text), context.links);
  switch (block.kind) {
    case 'paragraph':
      // A tight list's items hold their text without a paragraph around it, as CommonMark does.
      return tight ? html`${inline(block.text)}` : html`<p>${inline(block.text)}</p>`;
    case 'heading':
      return html`<p class="md-h${Math.min(block.level, 3)}" role="heading" aria-level=${block.level + 2}>${inline(block.text)}</p>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    case 'quote':
      return html`<blockquote>${renderBlocks(block.children, false, context)}</blockquote>`;
    case 'rule':
      return html`<hr />`;
    case 'list': {
      const items = block.items.map((item) => html`<li>${renderBlocks(item, block.tight, context)}</li>`);
      return block.ordered
        ? html`<ol start=${block.start === 1 ? nothing : block.start}>${items}</ol>`
        : html`<ul>${items}</ul>`;
    }
  }
}
