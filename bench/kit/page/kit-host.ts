// The kit's bench page: the snippet's queue, one raw tool, and the answer timer as the kit's fetch.
import './answer-timer.js';

const diosc = (window as unknown as { diosc: (...args: unknown[]) => unknown }).diosc;
const config = document.currentScript?.dataset ?? {};
diosc('init', {
  hubUrl: config.hub,
  publishableKey: config.pk,
  fetch: (window as unknown as { timedFetch: typeof fetch }).timedFetch,
});
diosc('tool', 'highlight_row', (params: { id: string }) => ({ highlighted: params.id }));
