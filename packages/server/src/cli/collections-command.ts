import { parseArgs } from 'node:util';
import { type CollectionRow, DioscError } from '@diosc/protocol';
import { createAccountCore } from '../account/core.js';
import { callerContext } from '../calls/caller.js';
import { systemClock } from '../clock.js';
import { firstRunLines, openLocalStore } from './local-store.js';

export const COLLECTIONS_USAGE = `  diosc collections list [--json]      the collection IDs (and the functions each kind allows) for --grant`;

/**
 * `diosc collections list`: the owner's collections with the IDs a grant names, through the
 * account core's own `collections_list` with the owner's authority (every page of it).
 */
export async function collectionsCommand(argv: string[], out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals[0] !== 'list' || positionals.length > 1) {
    throw new DioscError('invalid_input', `Usage:\n${COLLECTIONS_USAGE}`);
  }
  const local = await openLocalStore();
  try {
    for (const line of firstRunLines(local.owner)) out(line);
    const core = createAccountCore({ store: local.store, clock: systemClock });
    const caller = callerContext({ channel: 'owner', accountId: local.owner.accountId });
    const collections: CollectionRow[] = [];
    let cursor: string | undefined;
    do {
      const { result } = await core.execute(
        'collections_list',
        { limit: 100, ...(cursor ? { cursor } : {}) },
        caller,
      );
      collections.push(...result.collections);
      cursor = result.nextCursor ?? undefined;
    } while (cursor);
    if (values.json) return out(JSON.stringify(collections));
    if (collections.length === 0) return out('No collections yet.');
    const width = Math.max(...collections.map((row) => row.id.length));
    for (const row of collections) {
      out(
        `${row.id.padEnd(width)}  ${row.kind.padEnd(8)}  ${String(row.itemCount).padStart(5)} items  ${row.title}`,
      );
      out(`${' '.repeat(width)}  grantable: ${row.functions.join(',')}`);
    }
    out('');
    out(
      `Grant with --grant <id>:<function,…>, e.g. --grant ${collections[0]!.id}:${collections[0]!.functions[0]}`,
    );
  } finally {
    await local.store.close();
  }
}
