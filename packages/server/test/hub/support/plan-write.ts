/**
 * The `item_write` arguments the hub's tests have a model ask for: a new note `item` in `notes`,
 * under its own request id (each suite names one, so receipts never collide across suites).
 */
export function planWrite(requestId: string, item = 'plan', title = 'Plan') {
  return {
    collection: 'notes',
    item,
    requestId,
    ifNoneMatch: '*',
    content: { title, body: 'Ship it.', contentType: 'text/plain' },
  };
}
