import { type Diagram, edgeLabel } from './diagram.js';

/** Labels are the user's text: in markdown they must stay text (no links, emphasis or new lines). */
function text(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

/**
 * The open document as markdown — the `content` of the adapter's snapshot. Ids are in it because
 * the model's ops name steps by id; arrows are listed with both ends so it reads as a flow.
 */
export function diagramMarkdown(diagram: Diagram): string {
  const lines = [`# ${text(diagram.title)}`, '', `## Steps (${diagram.nodes.length})`];
  for (const node of diagram.nodes) lines.push(`- \`${node.id}\` ${text(node.label)}`);
  if (diagram.nodes.length === 0) lines.push('- (none yet)');
  lines.push('', `## Arrows (${diagram.edges.length})`);
  for (const edge of diagram.edges)
    lines.push(`- \`${edge.id}\` \`${edge.from}\` → \`${edge.to}\` (${text(edgeLabel(diagram, edge))})`);
  if (diagram.edges.length === 0) lines.push('- (none yet)');
  return lines.join('\n');
}
