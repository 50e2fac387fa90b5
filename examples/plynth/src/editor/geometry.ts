import { type Diagram, type DiagramNode, NODE_HEIGHT, NODE_WIDTH } from '../diagram/diagram.js';

export interface Point {
  x: number;
  y: number;
}

const center = (node: DiagramNode): Point => ({ x: node.x + NODE_WIDTH / 2, y: node.y + NODE_HEIGHT / 2 });

/** Where the line from `node`'s centre towards `toward` leaves its rectangle. */
function border(node: DiagramNode, toward: Point): Point {
  const c = center(node);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const t = Math.min(
    dx === 0 ? Number.POSITIVE_INFINITY : NODE_WIDTH / 2 / Math.abs(dx),
    dy === 0 ? Number.POSITIVE_INFINITY : NODE_HEIGHT / 2 / Math.abs(dy),
  );
  return { x: c.x + dx * t, y: c.y + dy * t };
}

/** An arrow between two steps, from border to border, so the head is never under a box. */
export function arrowBetween(from: DiagramNode, to: DiagramNode): { start: Point; end: Point } {
  return { start: border(from, center(to)), end: border(to, center(from)) };
}

/** The drawing's size: everything plus a margin, never smaller than a comfortable canvas. */
export function extent(diagram: Diagram): { width: number; height: number } {
  return {
    width: Math.max(960, ...diagram.nodes.map((node) => node.x + NODE_WIDTH + 40)),
    height: Math.max(360, ...diagram.nodes.map((node) => node.y + NODE_HEIGHT + 40)),
  };
}

/** The label as it fits in a box (the full text stays in the markdown and the tooltip). */
export function fitLabel(label: string, max = 22): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
