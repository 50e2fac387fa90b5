import { html, type TemplateResult } from 'lit';
import type { DocumentStore } from './documents/document-store.js';
import { createDiagramCanvas } from './editor/diagram-canvas.js';
import { createEditor, type Editor } from './editor/editor.js';
import { createEditorBridge, type EditorBridge } from './editor/editor-bridge.js';
import { editorPanel } from './editor/editor-panel.js';

/** The open document's editor, its bridge and its drawing. */
export interface OpenDocument {
  editor: Editor;
  bridge: EditorBridge;
  canvas: () => TemplateResult;
  stop: () => void;
}

export interface Workspace {
  open(): OpenDocument | null;
  /** Opens a document (closing the one open); returns false when there is none by that id. */
  openDocument(id: string): boolean;
  close(): void;
  render(): TemplateResult;
}

/**
 * The app: documents on the left, the open one's editor on the right. Opening or closing calls
 * `onSwap`, which is where the assistant's adapter is swapped to match what is on screen.
 */
export function createWorkspace(
  store: DocumentStore,
  hooks: { onChange(): void; onSwap(open: OpenDocument | null): void; exportPng(open: OpenDocument): void },
): Workspace {
  let current: OpenDocument | null = null;
  const workspace: Workspace = {
    open: () => current,
    openDocument(id) {
      const diagram = store.get(id);
      if (!diagram) return false;
      current?.stop();
      const editor = createEditor(store, diagram);
      current = {
        editor,
        bridge: createEditorBridge(editor),
        canvas: createDiagramCanvas(editor),
        stop: editor.subscribe(hooks.onChange),
      };
      hooks.onSwap(current);
      hooks.onChange();
      return true;
    },
    close() {
      current?.stop();
      current = null;
      hooks.onSwap(null);
      hooks.onChange();
    },
    render() {
      const openId = current?.editor.documentId;
      const create = () => workspace.openDocument(store.create('Untitled diagram').id);
      return html`<header class="app-header"><span class="brand">Plynth</span> <small>flowchart editor</small></header>
        <div class="workspace">
          <nav class="documents" aria-label="Documents">
            <h2>Documents</h2>
            <ul>${store.list().map(
              (
                each,
              ) => html`<li><button type="button" class="document" data-id=${each.id} aria-current=${each.id === openId ? 'true' : 'false'}
                @click=${() => workspace.openDocument(each.id)}>${each.title}</button></li>`,
            )}</ul>
            <button type="button" class="new" @click=${create}>New diagram</button>
          </nav>
          <main class="editor">${
            current
              ? html`<h1>${current.editor.diagram().title}</h1>
                ${editorPanel(current.editor, { exportPng: () => hooks.exportPng(current!), close: () => workspace.close() })}
                <div class="canvas-wrap">${current.canvas()}</div>`
              : html`<div class="empty"><h1>No document is open</h1><p>Pick a document on the left, or start a new one.</p></div>`
          }</main>
        </div>`;
    },
  };
  return workspace;
}
