import { COLLECTION_FUNCTIONS, type CollectionFunction, DioscError } from '@diosc/protocol';
import type { GrantEntry } from '../connections/grant.js';

/**
 * Parses `--grant` values of the form `collection:function,function` into grant entries.
 * Only the shape is checked here; `validateGrant` then checks them against the account.
 *
 * @example parseGrantSpecs(['notes:items_list,item_read', 'inbox:items_list'])
 */
export function parseGrantSpecs(specs: readonly string[]): GrantEntry[] {
  return specs.map((spec) => {
    const colon = spec.indexOf(':');
    const collection = colon === -1 ? '' : spec.slice(0, colon).trim();
    const functions =
      colon === -1
        ? []
        : spec
            .slice(colon + 1)
            .split(',')
            .map((fn) => fn.trim())
            .filter(Boolean);
    if (!collection || functions.length === 0) {
      throw new DioscError(
        'selection_invalid',
        `"${spec}" is not a grant; write collection:function[,function…], e.g. notes:items_list,item_read.`,
      );
    }
    for (const fn of functions) {
      if (!(COLLECTION_FUNCTIONS as readonly string[]).includes(fn)) {
        throw new DioscError(
          'selection_invalid',
          `"${fn}" is not a function; choose from ${COLLECTION_FUNCTIONS.join(', ')}.`,
        );
      }
    }
    return { collection, functions: functions as CollectionFunction[] };
  });
}

export function formatGrant(entries: readonly GrantEntry[]): string {
  return entries.map((entry) => `${entry.collection}: ${entry.functions.join(', ')}`).join('; ');
}
