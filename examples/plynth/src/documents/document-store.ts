import type { Diagram } from '../diagram/diagram.js';
import { SAMPLE_DIAGRAMS } from './samples.js';

export interface DocumentStore {
  list(): Diagram[];
  get(id: string): Diagram | undefined;
  save(diagram: Diagram): void;
  /** A new, empty document with a unique id. */
  create(title: string): Diagram;
  subscribe(listener: () => void): () => void;
}

const KEY = 'plynth-documents';

/**
 * The documents, kept in this browser's `localStorage` (the example has no backend): every edit —
 * by hand or by the assistant — is saved at once, so a reload shows the same diagram.
 */
export function createDocumentStore(storage: Storage = localStorage): DocumentStore {
  const listeners = new Set<() => void>();
  const read = (): Diagram[] => {
    try {
      const value = JSON.parse(storage.getItem(KEY) ?? 'null');
      if (Array.isArray(value)) return value;
    } catch {
      // A damaged entry: start again from the samples rather than fail to open.
    }
    return structuredClone([...SAMPLE_DIAGRAMS]);
  };
  const write = (documents: Diagram[]) => {
    storage.setItem(KEY, JSON.stringify(documents));
    for (const listener of listeners) listener();
  };
  const store: DocumentStore = {
    list: read,
    get: (id) => read().find((each) => each.id === id),
    save(diagram) {
      const documents = read();
      const at = documents.findIndex((each) => each.id === diagram.id);
      if (at === -1) documents.push(diagram);
      else documents[at] = diagram;
      write(documents);
    },
    create(title) {
      const documents = read();
      let n = documents.length + 1;
      while (documents.some((each) => each.id === `doc${n}`)) n++;
      const diagram: Diagram = { id: `doc${n}`, title, nodes: [], edges: [] };
      write([...documents, diagram]);
      return diagram;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}
