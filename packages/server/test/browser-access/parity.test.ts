import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrantEntry, toGrant } from '../../src/connections/grant.js';
import { signIn } from '../owner/owner-client.js';
import { browserClient } from './browser-client.js';

/** One exact grant, given to each transport. `drive` is listable only; nothing else is granted. */
const GRANT: GrantEntry[] = [
  { collection: 'inbox', functions: ['items_list', 'item_read', 'item_write'] },
  { collection: 'notes', functions: ['items_list', 'item_read', 'item_write', 'item_delete'] },
  { collection: 'drive', functions: ['items_list'] },
];

type Step = [tool: string, input: Record<string, unknown>];
type Outcome = { ok: unknown } | { error: string };

/** Reads and conditional writes, including refusals, replays and collisions. */
const SCRIPT: Step[] = [
  ['collections_list', {}],
  ['items_list', { collection: 'notes', limit: 2 }],
  ['item_read', { collection: 'notes', item: 'groceries' }],
  ['item_read', { collection: 'drive', item: 'roadmap' }],
  ['items_list', { collection: 'drive' }],
  [
    'item_write',
    {
      collection: 'notes',
      item: 'plan',
      requestId: 'parity-0001',
      ifNoneMatch: '*',
      content: { body: 'v1' },
    },
  ],
  [
    'item_write',
    {
      collection: 'notes',
      item: 'plan',
      requestId: 'parity-0001',
      ifNoneMatch: '*',
      content: { body: 'v1' },
    },
  ],
  [
    'item_write',
    {
      collection: 'notes',
      item: 'plan',
      requestId: 'parity-0001',
      ifNoneMatch: '*',
      content: { body: 'v9' },
    },
  ],
  [
    'item_write',
    {
      collection: 'notes',
      item: 'plan',
      requestId: 'parity-0002',
      ifNoneMatch: '*',
      content: { body: 'dup' },
    },
  ],
  [
    'item_write',
    { collection: 'notes', item: 'plan', requestId: 'parity-0003', ifMatch: '7', content: { body: 'v2' } },
  ],
  [
    'item_write',
    { collection: 'notes', item: 'plan', requestId: 'parity-0004', ifMatch: '1', content: { body: 'v2' } },
  ],
  ['item_read', { collection: 'notes', item: 'plan' }],
  [
    'item_write',
    {
      collection: 'inbox',
      item: 'welcome',
      requestId: 'parity-0005',
      metadata: { read: true, labels: ['x'] },
    },
  ],
  ['item_write', { collection: 'inbox', item: 'welcome', requestId: 'parity-0006', content: { body: 'no' } }],
  [
    'item_write',
    { collection: 'drive', item: 'roadmap', requestId: 'parity-0007', ifMatch: '1', content: { body: 'no' } },
  ],
  ['item_delete', { collection: 'notes', item: 'plan', requestId: 'parity-0008', ifMatch: '1' }],
  ['item_delete', { collection: 'notes', item: 'plan', requestId: 'parity-0009', ifMatch: '2' }],
  ['item_delete', { collection: 'notes', item: 'plan', requestId: 'parity-0010', ifMatch: '2' }],
  ['item_read', { collection: 'notes', item: 'plan' }],
  ['items_list', { collection: 'notes' }],
  ['items_list', { collection: 'inbox', limit: 1 }],
  ['item_read', { collection: 'inbox', item: 'welcome' }],
];

const isWrite = (tool: string) => tool === 'item_write' || tool === 'item_delete';

describe.each(DIALECTS)(
  'parity: browser access, the account core and /mcp give equal results ($name)',
  (dialect) => {
    const servers: TestServer[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 3; i += 1) servers.push(await startTestServer({ dialect }));
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
    });

    async function throughBrowser(server: TestServer): Promise<Outcome[]> {
      const browser = browserClient(server.url, await signIn(server.url));
      expect((await browser.enable(GRANT)).status).toBe(200);
      const outcomes: Outcome[] = [];
      for (const [tool, input] of SCRIPT) {
        const response = isWrite(tool)
          ? await browser.reviewAndExecute(tool, input)
          : await browser.dispatch(tool, input);
        const body = response.body as { result?: unknown; error?: { code: string } };
        outcomes.push(body.error ? { error: body.error.code } : { ok: body.result });
      }
      return outcomes;
    }

    async function throughCore(server: TestServer): Promise<Outcome[]> {
      const outcomes: Outcome[] = [];
      for (const [tool, input] of SCRIPT) {
        try {
          const { result } = await server.app.diosc.core.execute(tool, input, {
            accountId: server.accountId,
            actor: 'parity:core',
            via: 'owner',
            grant: toGrant(GRANT),
          });
          outcomes.push({ ok: result });
        } catch (error) {
          outcomes.push({ error: (error as { code: string }).code });
        }
      }
      return outcomes;
    }

    async function throughMcp(server: TestServer): Promise<Outcome[]> {
      const { token } = await server.app.diosc.connections.createMcp(server.accountId, {
        displayName: 'Parity',
        grant: GRANT,
      });
      const client = new Client({ name: 'diosc-parity', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const outcomes: Outcome[] = [];
      for (const [tool, input] of SCRIPT) {
        const result = (await client.callTool({ name: tool, arguments: input })) as {
          structuredContent?: { error?: { code: string } };
          isError?: boolean;
        };
        outcomes.push(
          result.isError
            ? { error: result.structuredContent?.error?.code ?? 'unknown' }
            : { ok: result.structuredContent },
        );
      }
      await client.close();
      return outcomes;
    }

    it('runs the same script through each transport to equal outcomes and equal stored items', async () => {
      const [browserServer, coreServer, mcpServer] = servers as [TestServer, TestServer, TestServer];
      const browser = await throughBrowser(browserServer);
      const core = await throughCore(coreServer);
      const mcp = await throughMcp(mcpServer);
      // The script exercises both successes and refusals, so equality is not vacuous.
      const kinds = new Set(core.map((outcome) => ('error' in outcome ? outcome.error : 'ok')));
      expect([...kinds].sort()).toEqual(
        [
          'not_found',
          'not_granted',
          'ok',
          'precondition_failed',
          'request_id_collision',
          'unsupported_input',
        ].sort(),
      );
      expect(browser).toEqual(core);
      expect(mcp).toEqual(core);
      const items = (server: TestServer) =>
        server.store.db
          .selectFrom('items')
          .select([
            'collection_id',
            'id',
            'title',
            'content',
            'content_type',
            'metadata',
            'version',
            'updated_at',
          ])
          .orderBy('collection_id')
          .orderBy('id')
          .execute();
      expect(await items(browserServer)).toEqual(await items(coreServer));
      expect(await items(mcpServer)).toEqual(await items(coreServer));
    });
  },
);
