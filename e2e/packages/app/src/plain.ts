// A page that installs the kit from npm and imports it the way the README shows.
import { type BrowserAdapter, diosc } from '@diosc/kit';
import { hubFromQuery } from './hub-from-query.js';

diosc('init', hubFromQuery());
diosc('tool', 'highlight_row', (params) => {
  const row = document.querySelector(`[data-id="${String(params.id)}"]`);
  if (!row) return { error: `Row ${String(params.id)} not found` };
  row.classList.add('is-highlighted');
  return { highlighted: params.id };
});

// The declarations reach the app: the adapter's snapshot is the protocol's PageSnapshot type.
const adapter: BrowserAdapter = { read: () => ({ url: location.pathname, title: document.title }) };
diosc('browserAdapter', adapter);

// @ts-expect-error — typed, not `any`: init without a publishable key does not compile.
if (location.hash === '#never') diosc('init', { hubUrl: 'https://hub.example' });
