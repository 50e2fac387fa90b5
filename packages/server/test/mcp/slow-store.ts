import { join } from 'node:path';
import type { TestServer } from '@diosc/server/testing';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { CallerContext } from '../../src/account/caller.js';
import { createAccountCore } from '../../src/account/core.js';
import { openStore, type Store } from '../../src/store/dialect.js';

interface Hold {
  table: string;
  kind: 'InsertQueryNode' | 'UpdateQueryNode';
  hit: () => void;
  released: Promise<void>;
}

/**
 * A database that can be made slow: a second connection to the test server's SQLite file whose
 * chosen statement holds its result until the test releases it. It stands in for a slow disk or
 * a busy database server, so a test can act while a call is at a known point. The account core
 * the server uses is rebuilt on it; the rest of the server keeps its own connection (WAL lets it
 * read meanwhile). The signals the core is given are recorded, so a test can wait for an abort.
 */
export async function useSlowStore(server: TestServer) {
  let hold: Hold | undefined;
  const held = new WeakSet<object>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node as { kind: string; into?: TableRef; table?: TableRef };
      const table = node.kind === 'InsertQueryNode' ? node.into : node.table;
      if (hold && node.kind === hold.kind && table?.table?.identifier?.name === hold.table)
        held.add(args.queryId);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (hold && held.has(args.queryId)) {
        const current = hold;
        hold = undefined;
        current.hit();
        await current.released;
      }
      return args.result;
    },
  };
  const base: Store = await openStore({ sqlitePath: join(server.dir, 'diosc.sqlite') });
  const store: Store = { ...base, db: base.db.withPlugin(plugin) };
  const core = createAccountCore({ store, clock: server.clock });
  const signals: AbortSignal[] = [];
  server.app.diosc.core = {
    ...core,
    execute(name: string, input: unknown, caller: CallerContext) {
      if (caller.signal) signals.push(caller.signal);
      return core.execute(name, input, caller);
    },
  } as typeof core;

  return {
    core,
    signals,
    /** Holds the next matching statement's result; `hit` resolves once it has run. */
    holdNext(kind: Hold['kind'], table: string) {
      let hit!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        hit = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { kind, table, hit, released };
      return { reached, release };
    },
    close: () => base.close(),
  };
}

interface TableRef {
  table?: { identifier?: { name?: string } };
}
