import type { BrowserAdapter } from '@diosc/kit';
import type { DocumentStore } from '../documents/document-store.js';

/**
 * The adapter while no document is open: the model still sees where the user is, and has no
 * intents — so an `apply_changes` planned before the editor closed finds nothing to run and fails
 * fast with the kit's "no longer available — page changed".
 */
export function libraryAdapter(store: DocumentStore): BrowserAdapter {
  return {
    read: () => {
      const documents = store.list();
      return {
        url: location.href,
        title: document.title,
        description: 'Plynth — no document is open',
        content: [
          '# Documents',
          ...documents.map((each) => `- ${each.title} (${each.nodes.length} steps)`),
        ].join('\n'),
        data: { open: null, documents: documents.map(({ id, title }) => ({ id, title })) },
      };
    },
    intents: [],
  };
}
