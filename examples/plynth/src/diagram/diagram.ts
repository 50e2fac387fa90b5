/** A step of the flowchart. `x`/`y` is its top-left corner in diagram units. */
export interface DiagramNode {
  id: string;
  label: string;
  x: number;
  y: number;
}

/** An arrow from one step to another. */
export interface DiagramEdge {
  id: string;
  from: string;
  to: string;
}

/** One document: a titled flowchart. Plain JSON, so it is stored and snapshotted as it is. */
export interface Diagram {
  id: string;
  title: string;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
}

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 56;
export const MAX_LABEL = 60;

/** Ids the model and the user may give: short, plain, safe in a selector and in markdown. */
export const ID_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

export function nodeById(diagram: Diagram, id: string): DiagramNode | undefined {
  return diagram.nodes.find((node) => node.id === id);
}

export function edgesOf(diagram: Diagram, nodeId: string): DiagramEdge[] {
  return diagram.edges.filter((edge) => edge.from === nodeId || edge.to === nodeId);
}

/** The next free `<prefix><n>` id (n1, n2, … for nodes; e1, … for edges). */
export function nextId(taken: Iterable<string>, prefix: 'n' | 'e'): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Vertical distance between steps of a flow that runs top to bottom. */
export const ROW = NODE_HEIGHT + 44;

/**
 * Where a new step goes: under `after` when given, else under the lowest step; moved right past any
 * step already there, so nothing is ever drawn on top of another step.
 */
export function placeNode(diagram: Diagram, after?: DiagramNode): { x: number; y: number } {
  const overlaps = (x: number, y: number) =>
    diagram.nodes.some(
      (node) => Math.abs(node.x - x) < NODE_WIDTH + 16 && Math.abs(node.y - y) < NODE_HEIGHT + 16,
    );
  let x = after ? after.x : 40;
  const y = after
    ? after.y + ROW
    : diagram.nodes.length === 0
      ? 40
      : Math.max(...diagram.nodes.map((node) => node.y)) + ROW;
  while (overlaps(x, y)) x += NODE_WIDTH + 48;
  return { x, y };
}

export function edgeLabel(diagram: Diagram, edge: DiagramEdge): string {
  const name = (id: string) => nodeById(diagram, id)?.label ?? id;
  return `${name(edge.from)} → ${name(edge.to)}`;
}
