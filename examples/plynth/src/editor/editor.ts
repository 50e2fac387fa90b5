import type { Diagram } from '../diagram/diagram.js';
import { type ApplyResult, applyOps, type DiagramOp } from '../diagram/diagram-ops.js';
import type { DocumentStore } from '../documents/document-store.js';

export type Selection = { kind: 'node' | 'edge'; id: string } | null;

export interface Editor {
  readonly documentId: string;
  diagram(): Diagram;
  selection(): Selection;
  select(selection: Selection): void;
  /** The step an arrow is being drawn from ("Connect" was pressed), or null. */
  connectingFrom(): string | null;
  startConnecting(): void;
  cancelConnecting(): void;
  /**
   * Every change of the diagram's content — by hand or by the assistant — is a batch of ops through
   * this one path, applied all or nothing and saved at once.
   */
  apply(ops: DiagramOp[]): ApplyResult;
  /** Moves a step; `commit` saves (at the end of a drag), otherwise it only redraws. */
  move(id: string, x: number, y: number, commit: boolean): void;
  subscribe(listener: () => void): () => void;
}

/** The editor of one open document. Opening another document makes a new editor. */
export function createEditor(store: DocumentStore, initial: Diagram): Editor {
  let diagram: Diagram = structuredClone(initial);
  let selection: Selection = null;
  let connecting: string | null = null;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const exists = (chosen: Selection) =>
    chosen === null ||
    (chosen.kind === 'node' ? diagram.nodes : diagram.edges).some((each) => each.id === chosen.id);

  return {
    documentId: initial.id,
    diagram: () => diagram,
    selection: () => selection,
    select(next) {
      selection = next;
      changed();
    },
    connectingFrom: () => connecting,
    startConnecting() {
      if (selection?.kind !== 'node') return;
      connecting = selection.id;
      changed();
    },
    cancelConnecting() {
      connecting = null;
      changed();
    },
    apply(ops) {
      const result = applyOps(diagram, ops);
      if (!result.ok) return result;
      diagram = result.diagram;
      // A deleted step or arrow is no longer selectable.
      if (!exists(selection)) selection = null;
      if (connecting && !diagram.nodes.some((node) => node.id === connecting)) connecting = null;
      store.save(diagram);
      changed();
      return result;
    },
    move(id, x, y, commit) {
      const node = diagram.nodes.find((each) => each.id === id);
      if (!node) return;
      node.x = Math.max(0, Math.round(x));
      node.y = Math.max(0, Math.round(y));
      if (commit) store.save(diagram);
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
