import type { BrowserAdapter, IntentDefinition } from '@diosc/kit';
import { MAX_LABEL } from '../diagram/diagram.js';
import { type DiagramOp, OP_KINDS } from '../diagram/diagram-ops.js';
import type { EditorBridge } from '../editor/editor-bridge.js';

interface ChangeArgs {
  document: string;
  ops: DiagramOp[];
}

/** The seed's words for an intent whose view is gone (the kit says the same when the intent vanished). */
export const pageChanged = (name: string) => `intent "${name}" no longer available — page changed`;

function changesSchema(documentId: string) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['document', 'ops'],
    properties: {
      document: {
        type: 'string',
        const: documentId,
        description: 'The open document (data.documentId of the page snapshot).',
      },
      ops: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['op'],
          properties: {
            op: { enum: [...OP_KINDS] },
            id: {
              type: 'string',
              description:
                'add_node: an id for the new step (optional); rename/delete_node: the step; delete_edge: the arrow',
            },
            label: {
              type: 'string',
              maxLength: MAX_LABEL,
              description: 'add_node, rename: the text of the step',
            },
            after: { type: 'string', description: 'add_node: place the new step right of this step' },
            from: { type: 'string', description: 'connect, delete_edge: the step the arrow starts at' },
            to: { type: 'string', description: 'connect, delete_edge: the step the arrow points to' },
          },
        },
      },
    },
  };
}

/**
 * The adapter of one open document. `read()` is pulled fresh with every message; `apply_changes`
 * waits for the user's decision in the kit's consensus dialog before anything changes (the kit gates
 * a whole intent, so every batch is reviewed, and the summary says when it deletes); `export_png`
 * hands the user a file through the kit's file contract.
 */
export function diagramAdapter(bridge: EditorBridge): BrowserAdapter {
  // Planned against another document: nothing runs (see docs/tutorials/plynth.md, "A vanished intent").
  const stale = (args: ChangeArgs) => args.document !== bridge.documentId;
  const applyChanges: IntentDefinition<ChangeArgs> = {
    name: 'apply_changes',
    description:
      'Apply a list of operations to the open diagram: add_node, connect, rename, delete_node, delete_edge. Steps and arrows are named by their ids from the snapshot. All or nothing.',
    schema: changesSchema(bridge.documentId),
    approval: {
      severity: 'medium',
      summary: (args) =>
        stale(args)
          ? `Planned for another document (${args.document}): nothing will change in “${bridge.title()}”`
          : bridge.review(args.ops).summary,
      diff: (args) => (stale(args) ? [] : bridge.review(args.ops).rows),
    },
    handler(args) {
      if (stale(args)) return { success: false, error: pageChanged('apply_changes') };
      const result = bridge.apply(args.ops);
      if (!result.ok) return { success: false, error: result.error };
      const { nodeCount, edgeCount } = bridge.data();
      return { success: true, data: { applied: result.applied, nodeCount, edgeCount } };
    },
  };
  const exportPngIntent: IntentDefinition<{ scale?: number }> = {
    name: 'export_png',
    description: 'Export the open diagram as a PNG image the user can download.',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        scale: { type: 'integer', minimum: 1, maximum: 3, description: 'Pixels per unit (default 2)' },
      },
    },
    async handler(args) {
      const blob = await bridge.exportPng(args.scale ?? 2);
      return {
        success: true,
        data: { title: bridge.title(), sizeBytes: blob.size },
        file: { content: blob, filename: 'diagram.png', mimeType: 'image/png' },
      };
    },
  };
  return {
    read: () => ({
      url: location.href,
      title: document.title,
      description: `Flowchart editor — the open document “${bridge.title()}”`,
      content: bridge.toMarkdown(),
      data: bridge.data(),
    }),
    intents: [applyChanges, exportPngIntent],
  };
}
