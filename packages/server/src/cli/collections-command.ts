import { parseArgs } from 'node:util';
import { DioscError } from '@diosc/protocol';
import { listCollections } from '../account/collections.js';
import { createAccountCore } from '../account/core.js';
import { KIND_FUNCTIONS } from '../account/kinds.js';
import { systemClock } from '../clock.js';
import { firstRunLines, openLocalStore } from './local-store.js';
import { COLLECTIONS_USAGE } from './usage.js';

const ACTIONS = ['list', 'disconnect', 'reconnect'];

/**
 * `diosc collections …` on the local store: list the collections, and disconnect the provider
 * source of an external one through the account core, as the portal does. Reconnecting is refused
 * on purpose: grants still name the old ID, and a new provider connection is a new collection.
 */
export async function collectionsCommand(
  argv: string[],
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [action, id] = positionals;
  if (!action || !ACTIONS.includes(action)) throw new DioscError('invalid_input', COLLECTIONS_USAGE);
  if (action !== 'list' && !id) {
    throw new DioscError('invalid_input', `Give the collection ID: diosc collections ${action} <id>`);
  }
  const local = await openLocalStore(env);
  try {
    for (const line of firstRunLines(local.owner)) out(line);
    const accountId = local.owner.accountId;
    const rows = await listCollections(local.store.db, accountId);
    if (action === 'list') {
      // With each collection, the functions its kind allows: what `connections create --grant
      // <id>:<function,…>` may name for it.
      const listed = rows.map((row) => ({ ...row, functions: KIND_FUNCTIONS[row.kind] }));
      if (values.json) return out(JSON.stringify(listed));
      for (const row of listed) {
        const state = row.disconnectedAt === null ? '' : '  source disconnected';
        out(
          `${row.id.padEnd(16)} ${row.kind.padEnd(8)} ${row.title}${row.provider ? ` (${row.provider})` : ''}${state}`,
        );
        out(`${' '.repeat(17)}grantable: ${row.functions.join(',')}`);
      }
      if (listed[0])
        out(
          `Grant one with --grant <id>:<function,…>, e.g. --grant ${listed[0].id}:${listed[0].functions[0]}`,
        );
      return;
    }
    if (action === 'reconnect') {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row) throw new DioscError('not_found', `There is no collection "${id}".`);
      if (row.disconnectedAt === null) {
        throw new DioscError(
          'invalid_input',
          `The source of "${id}" is connected; there is nothing to reconnect.`,
        );
      }
      throw new DioscError(
        'source_revoked',
        `The source of "${id}" stays disconnected: grants still name this ID, so reconnecting would hand the provider back to them unasked. Connect the provider again as a new collection and grant it afresh.`,
      );
    }
    const core = createAccountCore({ store: local.store, clock: systemClock });
    const done = await core.disconnectSource(accountId, id!);
    out(
      done.changed
        ? `Disconnected the source of ${done.collection.id} "${done.collection.title}"; every call naming it now answers source_revoked.`
        : `The source of ${done.collection.id} "${done.collection.title}" was already disconnected (${done.disconnectedAt}).`,
    );
  } finally {
    await local.store.close();
  }
}
