import { html, nothing, type TemplateResult } from 'lit';
import { nodeById } from '../diagram/diagram.js';
import type { Editor } from './editor.js';

export interface PanelActions {
  exportPng(): void;
  close(): void;
}

/**
 * The editor's toolbar and inspector: add a step, connect, rename (the selected step's label),
 * delete, export, close. Every change goes through `editor.apply`, the path the assistant uses too.
 */
export function editorPanel(editor: Editor, actions: PanelActions): TemplateResult {
  const diagram = editor.diagram();
  const selected = editor.selection();
  const node = selected?.kind === 'node' ? nodeById(diagram, selected.id) : undefined;
  const connecting = editor.connectingFrom();
  const add = () => {
    const after = node?.id;
    const result = editor.apply([{ op: 'add_node', label: 'New step', ...(after ? { after } : {}) }]);
    if (!result.ok) return;
    const added = result.diagram.nodes.at(-1)!;
    if (after) editor.apply([{ op: 'connect', from: after, to: added.id }]);
    editor.select({ kind: 'node', id: added.id });
  };
  const remove = () => {
    if (!selected) return;
    editor.apply([{ op: selected.kind === 'node' ? 'delete_node' : 'delete_edge', id: selected.id }]);
  };
  const rename = (event: Event) => {
    const value = (event.target as HTMLInputElement).value;
    if (node && value.trim() && value.trim() !== node.label)
      editor.apply([{ op: 'rename', id: node.id, label: value }]);
  };
  return html`<div class="toolbar" role="toolbar" aria-label="Diagram">
      <button type="button" @click=${add}>${node ? 'Add step after' : 'Add step'}</button>
      <button type="button" ?disabled=${!node} aria-pressed=${connecting ? 'true' : 'false'}
        @click=${() => (connecting ? editor.cancelConnecting() : editor.startConnecting())}>${connecting ? 'Cancel connecting' : 'Connect'}</button>
      <button type="button" ?disabled=${!selected} @click=${remove}>Delete</button>
      <span class="spacer"></span>
      <button type="button" @click=${actions.exportPng}>Export PNG</button>
      <button type="button" @click=${actions.close}>Close document</button>
    </div>
    <div class="inspector">
      ${
        node
          ? html`<label for="node-label">Label of <code>${node.id}</code></label>
            <input id="node-label" .value=${node.label} maxlength="60" @change=${rename}
              @keydown=${(event: KeyboardEvent) => event.key === 'Enter' && (event.target as HTMLInputElement).blur()} />`
          : nothing
      }
      <p class="hint">${
        connecting
          ? `Click the step the arrow from “${nodeById(diagram, connecting)?.label}” should point to.`
          : 'Click a step or an arrow to select it, drag a step to move it. Delete removes the selection.'
      }</p>
    </div>`;
}
