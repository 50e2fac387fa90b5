import { type Diagram, edgeLabel, edgesOf, nodeById } from './diagram.js';
import { DESTRUCTIVE_OPS, type DiagramOp, edgeFor } from './diagram-ops.js';

/** One row of the approval dialog's before/after table (the kit's `DiffRow`). */
export interface ReviewRow {
  field: string;
  current: string;
  next: string;
}

const NONE = '—';
const DELETED = '— (deleted)';

/**
 * What each op would do to `diagram`, before → after, for the consensus dialog. Rows are computed on
 * a running copy, so an op that uses a step an earlier op adds reads right; an op that cannot apply
 * says so in its row instead of hiding.
 */
export function reviewRows(diagram: Diagram, ops: readonly DiagramOp[]): ReviewRow[] {
  const working: Diagram = structuredClone(diagram);
  const name = (id: string | undefined) => (id && nodeById(working, id)?.label) || `${id ?? '?'} (not found)`;
  return ops.map((op): ReviewRow => {
    switch (op.op) {
      case 'add_node': {
        const id = op.id ?? 'new';
        working.nodes.push({ id, label: op.label ?? '', x: 0, y: 0 });
        return { field: `Step ${id}`, current: NONE, next: op.label ?? '' };
      }
      case 'connect':
        working.edges.push({ id: `new-${working.edges.length}`, from: op.from ?? '', to: op.to ?? '' });
        return { field: 'Arrow', current: NONE, next: `${name(op.from)} → ${name(op.to)}` };
      case 'rename': {
        const before = name(op.id);
        const node = op.id ? nodeById(working, op.id) : undefined;
        if (node) node.label = op.label ?? node.label;
        return { field: `Step ${op.id}`, current: before, next: op.label ?? '' };
      }
      case 'delete_node': {
        const node = op.id ? nodeById(working, op.id) : undefined;
        const arrows = node ? edgesOf(working, node.id).length : 0;
        if (node) {
          working.nodes = working.nodes.filter((each) => each !== node);
          working.edges = working.edges.filter((edge) => edge.from !== node.id && edge.to !== node.id);
        }
        return {
          field: `Step ${op.id}`,
          current: node
            ? `${node.label}${arrows ? ` (and its ${arrows} arrow${arrows === 1 ? '' : 's'})` : ''}`
            : name(op.id),
          next: DELETED,
        };
      }
      case 'delete_edge': {
        const edge = edgeFor(working, op);
        if (edge) working.edges = working.edges.filter((each) => each !== edge);
        return {
          field: `Arrow ${edge?.id ?? op.id ?? ''}`.trim(),
          current: edge ? edgeLabel(working, edge) : `${op.id ?? `${op.from} → ${op.to}`} (not found)`,
          next: DELETED,
        };
      }
      default:
        return { field: String((op as { op?: unknown }).op), current: NONE, next: '(unknown op)' };
    }
  });
}

/** The dialog's title: the seed's words, plus what will be removed when anything will. */
export function reviewSummary(ops: readonly DiagramOp[]): string {
  const removals = ops.filter((op) => DESTRUCTIVE_OPS.has(op.op)).length;
  const base = `Apply ${ops.length} change(s) to the diagram`;
  return removals > 0 ? `${base}, including ${removals} deletion(s)` : base;
}
