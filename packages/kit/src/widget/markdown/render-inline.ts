import { html, type TemplateResult } from 'lit';
import type { InlineNode } from './inline-node.js';
import { type LinkPolicy, linkView } from './link-view.js';

/** Deeper nesting than this is drawn as plain text: a hostile `*a **b *c …` cannot exhaust the stack. */
const MAX_DEPTH = 32;

/** The text of nodes nested past MAX_DEPTH, read without recursion (hostile nesting runs deep). */
function plainText(nodes: InlineNode[]): string {
  let text = '';
  const pending = [...nodes].reverse();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node === 'string') text += node;
    else if ('children' in node) pending.push(...[...node.children].reverse());
    else text += 'text' in node ? node.text : '\n';
  }
  return text;
}

/** Inline nodes as Lit values: every piece of text through a text binding, never parsed as HTML. */
export function renderInline(
  nodes: InlineNode[],
  policy: LinkPolicy,
  depth = 0,
  inLink = false,
): (string | TemplateResult)[] {
  if (depth > MAX_DEPTH) return [plainText(nodes)];
  return nodes.map((node) => inlineView(node, policy, depth, inLink));
}

function inlineView(
  node: InlineNode,
  policy: LinkPolicy,
  depth: number,
  inLink: boolean,
): string | TemplateResult {
  if (typeof node === 'string') return node;
  const inner = (children: InlineNode[]) =>
    renderInline(children, policy, depth + 1, inLink || node.mark === 'link');
  switch (node.mark) {
    case 'em':
      return html`<em>${inner(node.children)}</em>`;
    case 'strong':
      return html`<strong>${inner(node.children)}</strong>`;
    case 'code':
      return html`<code>${node.text}</code>`;
    case 'br':
      return html`<br />`;
    case 'autolink':
      // CommonMark has no links inside links; GFM's bare URLs inside a label stay text too.
      return inLink ? node.text : linkView(node.text, node.href, policy);
    case 'link':
      return linkView(inner(node.children), node.href, policy, node.title);
  }
}
