import { html, nothing, type TemplateResult } from 'lit';

/**
 * Markdown for model and tool text, rendered straight to Lit templates: every piece of text goes
 * through a text binding, so no input is ever parsed as HTML (raw `<tags>` show as text), and a
 * link is made only for http(s) and mailto URLs — never `javascript:` or `data:`. Supported:
 * paragraphs, line breaks, `#` headings, `-`/`1.` lists, `>` quotes, fenced and inline code,
 * **strong**, *emphasis*, [links](https://…) and bare https:// links.
 */
export function renderMarkdown(text: string): TemplateResult[] {
  const blocks: TemplateResult[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) body.push(lines[i]!);
      i++;
      blocks.push(html`<pre><code>${body.join('\n')}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push(
        html`<p class="md-h${Math.min(heading[1]!.length, 3)}" role="heading" aria-level=${heading[1]!.length + 2}>${inline(heading[2]!)}</p>`,
      );
      i++;
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: TemplateResult[] = [];
      for (; i < lines.length && item.test(lines[i]!); i++)
        items.push(html`<li>${inline(lines[i]!.replace(item, ''))}</li>`);
      blocks.push(ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`);
      continue;
    }
    if (line.startsWith('>')) {
      const quoted: string[] = [];
      for (; i < lines.length && lines[i]!.startsWith('>'); i++) quoted.push(lines[i]!.replace(/^>\s?/, ''));
      blocks.push(html`<blockquote>${renderMarkdown(quoted.join('\n'))}</blockquote>`);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const paragraph: string[] = [];
    for (
      ;
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !/^\s*(```|~~~|#{1,6}\s|>|[-*+]\s|\d+[.)]\s)/.test(lines[i]!);
      i++
    )
      paragraph.push(lines[i]!);
    blocks.push(
      html`<p>${paragraph.map((each, index) => html`${index > 0 ? html`<br />` : nothing}${inline(each)}`)}</p>`,
    );
  }
  return blocks;
}

const INLINE =
  /(`+)([^`]+?)\1|\*\*(.+?)\*\*|__(.+?)__|\*(\S(?:.*?\S)?)\*|_(\S(?:.*?\S)?)_|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

/** A link target worth following: http, https or mailto, resolved against the page. */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href, location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const link = (label: unknown, href: string) => {
  const safe = safeHref(href);
  return safe
    ? html`<a href=${safe} target="_blank" rel="noopener noreferrer nofollow">${label}</a>`
    : html`${label}`;
};

function inline(text: string, depth = 0): unknown[] {
  const out: unknown[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    out.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    const [, , code, strong1, strong2, em1, em2, label, href, bare] = match;
    const nested = (inner: string) => (depth < 3 ? inline(inner, depth + 1) : inner);
    if (code !== undefined) out.push(html`<code>${code}</code>`);
    else if (strong1 ?? strong2) out.push(html`<strong>${nested((strong1 ?? strong2)!)}</strong>`);
    else if (em1 ?? em2) out.push(html`<em>${nested((em1 ?? em2)!)}</em>`);
    else if (label !== undefined) out.push(link(nested(label), href!));
    else if (bare) out.push(link(bare, bare));
  }
  out.push(text.slice(last));
  return out;
}
