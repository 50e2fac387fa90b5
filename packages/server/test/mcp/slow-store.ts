import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

interface Hold {
  table: string;
  kind: 'InsertQueryNode' | 'UpdateQueryNode';
  hit: () => void;
  released: Promise<void>;
}

interface TableRef {
  table?: { identifier?: { name?: string } };
}

/**
 * A database that can be made slow: a Kysely plugin for the account core's own connection
 * (`startTestServer({ coreStorePlugins: [slow.plugin] })`) whose chosen statement holds its result
 * until the test releases it. It stands in for a slow disk or a busy database server, so a test can
 * act while a call is at a known point; the rest of the server reads on its own connection.
 */
export function createSlowStatements() {
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

  return {
    plugin,
    /** Holds the next matching statement's result; `reached` resolves once it has run. */
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
  };
}
