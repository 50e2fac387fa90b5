import {
  type Diagram,
  type DiagramNode,
  edgesOf,
  ID_PATTERN,
  MAX_LABEL,
  nextId,
  nodeById,
  placeNode,
} from './diagram.js';

/**
 * One change to a diagram, as the model (or a test) writes it. Flat on purpose: every provider's
 * tool calling handles an object with optional fields, fewer handle `oneOf`.
 */
export interface DiagramOp {
  op: 'add_node' | 'connect' | 'rename' | 'delete_node' | 'delete_edge';
  /** add_node: the new step's id (optional); rename, delete_node: the step; delete_edge: the arrow. */
  id?: string;
  /** add_node, rename: the step's text. */
  label?: string;
  /** add_node: put the new step to the right of this one. */
  after?: string;
  /** connect (and delete_edge without an id): the arrow's ends. */
  from?: string;
  to?: string;
}

export const OP_KINDS = ['add_node', 'connect', 'rename', 'delete_node', 'delete_edge'] as const;

/** The ops that remove something: the approval summary counts them. */
export const DESTRUCTIVE_OPS: ReadonlySet<string> = new Set(['delete_node', 'delete_edge']);

export type ApplyResult =
  | { ok: true; diagram: Diagram; applied: string[] }
  | { ok: false; error: string; at: number };

const label = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_LABEL) : undefined;

/** The arrow a delete_edge means: by id, or by its two ends. */
export function edgeFor(diagram: Diagram, op: DiagramOp) {
  return op.id
    ? diagram.edges.find((edge) => edge.id === op.id)
    : diagram.edges.find((edge) => edge.from === op.from && edge.to === op.to);
}

function step(diagram: Diagram, op: DiagramOp): string {
  const need = (id: string | undefined, role: string): DiagramNode => {
    const node = id === undefined ? undefined : nodeById(diagram, id);
    if (!node) throw new Error(`${role} ${JSON.stringify(id ?? null)} is not a step of this diagram`);
    return node;
  };
  switch (op.op) {
    case 'add_node': {
      const text = label(op.label);
      if (!text) throw new Error('add_node needs a label');
      if (op.id !== undefined && (!ID_PATTERN.test(op.id) || nodeById(diagram, op.id)))
        throw new Error(`${JSON.stringify(op.id)} is taken or is not a plain id (a-z, 0-9, _ or -)`);
      const after = op.after === undefined ? undefined : need(op.after, 'after');
      const id =
        op.id ??
        nextId(
          diagram.nodes.map((node) => node.id),
          'n',
        );
      diagram.nodes.push({ id, label: text, ...placeNode(diagram, after) });
      return `added step ${id} “${text}”`;
    }
    case 'connect': {
      const from = need(op.from, 'from');
      const to = need(op.to, 'to');
      if (from.id === to.id) throw new Error('a step cannot connect to itself');
      if (diagram.edges.some((edge) => edge.from === from.id && edge.to === to.id))
        throw new Error(`${from.id} is already connected to ${to.id}`);
      const id = nextId(
        diagram.edges.map((edge) => edge.id),
        'e',
      );
      diagram.edges.push({ id, from: from.id, to: to.id });
      return `connected ${from.id} → ${to.id} (${id})`;
    }
    case 'rename': {
      const node = need(op.id, 'id');
      const text = label(op.label);
      if (!text) throw new Error('rename needs a label');
      node.label = text;
      return `renamed ${node.id} to “${text}”`;
    }
    case 'delete_node': {
      const node = need(op.id, 'id');
      const gone = new Set(edgesOf(diagram, node.id).map((edge) => edge.id));
      diagram.nodes = diagram.nodes.filter((each) => each.id !== node.id);
      diagram.edges = diagram.edges.filter((edge) => !gone.has(edge.id));
      return `deleted step ${node.id} and ${gone.size} arrow(s)`;
    }
    case 'delete_edge': {
      const edge = edgeFor(diagram, op);
      if (!edge) throw new Error(`no arrow ${op.id ?? `${op.from} → ${op.to}`}`);
      diagram.edges = diagram.edges.filter((each) => each.id !== edge.id);
      return `deleted arrow ${edge.id}`;
    }
    default:
      throw new Error(
        `unknown op ${JSON.stringify((op as { op?: unknown }).op)}; use ${OP_KINDS.join(', ')}`,
      );
  }
}

/**
 * Applies a batch of ops all or nothing, on a copy: a later op may use a step an earlier one added,
 * and the first op that cannot apply leaves the diagram as it was and says which and why.
 *
 * @example
 * applyOps(diagram, [{ op: 'add_node', id: 'review', label: 'Review', after: 'n2' }, { op: 'connect', from: 'n2', to: 'review' }]);
 */
export function applyOps(diagram: Diagram, ops: readonly DiagramOp[]): ApplyResult {
  const next: Diagram = structuredClone(diagram);
  const applied: string[] = [];
  for (const [index, op] of ops.entries()) {
    try {
      if (typeof op !== 'object' || op === null) throw new Error('each op must be an object');
      applied.push(step(next, op));
    } catch (error) {
      return {
        ok: false,
        at: index,
        error: `op ${index + 1} (${String(op?.op)}): ${(error as Error).message}`,
      };
    }
  }
  return { ok: true, diagram: next, applied };
}
