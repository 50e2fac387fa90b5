import { type ReviewRow, reviewRows, reviewSummary } from '../diagram/change-review.js';
import { diagramMarkdown } from '../diagram/diagram-markdown.js';
import type { DiagramOp } from '../diagram/diagram-ops.js';
import { exportPng } from '../export/png-export.js';
import type { Editor } from './editor.js';

/** What the assistant reads of the open document: counts, and each step and arrow by id. */
export interface DiagramData {
  documentId: string;
  title: string;
  nodeCount: number;
  edgeCount: number;
  nodes: { id: string; label: string }[];
  edges: { id: string; from: string; to: string }[];
}

/**
 * The seed's `editorBridge`: the one narrow door between the assistant's adapter and the editor.
 * The adapter never touches the DOM or the editor's internals — it reads, reviews and applies
 * through here, on the same code path as the toolbar.
 */
export interface EditorBridge {
  readonly documentId: string;
  title(): string;
  toMarkdown(): string;
  data(): DiagramData;
  /** Before/after rows and a title for the approval dialog, computed on the current diagram. */
  review(ops: DiagramOp[]): { summary: string; rows: ReviewRow[] };
  apply(ops: DiagramOp[]): { ok: true; applied: string[] } | { ok: false; error: string };
  exportPng(scale?: number): Promise<Blob>;
}

export function createEditorBridge(editor: Editor): EditorBridge {
  return {
    documentId: editor.documentId,
    title: () => editor.diagram().title,
    toMarkdown: () => diagramMarkdown(editor.diagram()),
    data() {
      const diagram = editor.diagram();
      return {
        documentId: diagram.id,
        title: diagram.title,
        nodeCount: diagram.nodes.length,
        edgeCount: diagram.edges.length,
        nodes: diagram.nodes.map(({ id, label }) => ({ id, label })),
        edges: diagram.edges.map(({ id, from, to }) => ({ id, from, to })),
      };
    },
    review: (ops) => ({ summary: reviewSummary(ops), rows: reviewRows(editor.diagram(), ops) }),
    apply(ops) {
      const result = editor.apply(ops);
      return result.ok ? { ok: true, applied: result.applied } : { ok: false, error: result.error };
    },
    exportPng: (scale) => exportPng(editor.diagram(), scale),
  };
}
