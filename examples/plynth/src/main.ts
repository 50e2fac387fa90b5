import { render } from 'lit';
import { connectAssistant } from './assistant/connect-assistant.js';
import { diagramAdapter } from './assistant/diagram-adapter.js';
import { libraryAdapter } from './assistant/library-adapter.js';
import { createDocumentStore } from './documents/document-store.js';
import { createWorkspace } from './workspace.js';
import './styles.css';

const root = document.getElementById('app')!;
const store = createDocumentStore();
const setAdapter = connectAssistant();

/** The user's own "Export PNG" button: the same PNG the assistant's export_png makes, saved at once. */
function download(blob: Blob, filename: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 30_000);
}

const workspace = createWorkspace(store, {
  onChange: () => {
    const open = workspace.open();
    document.title = open ? `${open.editor.diagram().title} · Plynth` : 'Plynth';
    render(workspace.render(), root);
  },
  onSwap(open) {
    // The address says which document is open, so a reload opens it again.
    history.replaceState(null, '', open ? `/?doc=${encodeURIComponent(open.editor.documentId)}` : '/');
    setAdapter?.(open ? diagramAdapter(open.bridge) : libraryAdapter(store));
  },
  exportPng: (open) => void open.bridge.exportPng().then((blob) => download(blob, 'diagram.png')),
});

addEventListener('keydown', (event) => {
  const open = workspace.open();
  const typing = (event.target as Element | null)?.closest?.('input, textarea, select, [contenteditable]');
  if (!open || typing) return;
  const selected = open.editor.selection();
  if ((event.key === 'Delete' || event.key === 'Backspace') && selected) {
    event.preventDefault();
    open.editor.apply([{ op: selected.kind === 'node' ? 'delete_node' : 'delete_edge', id: selected.id }]);
  }
  if (event.key === 'Escape') open.editor.cancelConnecting();
});

const requested = new URLSearchParams(location.search).get('doc');
if (!requested || !workspace.openDocument(requested)) workspace.close();
