import type { InitOptions } from '@diosc/kit';

/** The test hands the page its hub and publishable key in the query string (`?hub=…&pk=…`). */
export function hubFromQuery(): InitOptions {
  const query = new URLSearchParams(location.search);
  return { hubUrl: query.get('hub') ?? '', publishableKey: query.get('pk') ?? '', open: true };
}
