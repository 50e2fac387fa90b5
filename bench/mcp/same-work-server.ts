// The same-work baseline: what /mcp must cost at least. The same HTTP stack as ours (Fastify, its
// JSON body parser, the request hijacked to the SDK), the same SDK v2 server and stateless
// Streamable HTTP transport with JSON responses, and the same work for `tools/call items_list`:
// the same SQLite page read items_list runs (the same SQL on the same seeded 10,000-item file,
// better-sqlite3 prepared once) mapped to the same summaries and cursor, answered as the same tool
// result. No authentication, grant, input or output validation, usage row or rate limit: the gap
// between this and ours is our own cost. Prints { url }.

import { join } from 'node:path';
import { openTestStore, seedCollection } from '@diosc/server/testing';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const ITEMS = 10_000;
const test = await openTestStore();
await seedCollection(
  test.store,
  test.accountId,
  { id: 'bench', kind: 'storage', title: 'Benchmark' },
  { items: ITEMS, body: (index) => `Item ${index}: a note of ordinary length for the benchmark.` },
);

const database = new SQLite(join(test.config.dataDir, 'diosc.sqlite'));
database.pragma('journal_mode = WAL');
database.pragma('synchronous = NORMAL');
// The statement items_list's query builder produces (keyset order, one row more than the page).
const pageQuery = database.prepare<
  [string, string, number],
  {
    id: string;
    title: string;
    version: number;
    updated_at: number;
    size_bytes: number;
    metadata: string | null;
  }
>(
  'select "id", "title", "version", "updated_at", "size_bytes", "metadata" from "items" where "account_id" = ? and "collection_id" = ? order by "updated_at" desc, "id" asc limit ?',
);

function itemsList(collection: string, limit: number) {
  const rows = pageQuery.all(test.accountId, collection, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    collection,
    items: page.map((row) => {
      const summary: Record<string, unknown> = {
        id: row.id,
        title: row.title,
        version: String(row.version),
        updatedAt: new Date(row.updated_at).toISOString(),
        sizeBytes: row.size_bytes,
      };
      if (row.metadata !== null) summary.metadata = JSON.parse(row.metadata);
      return summary;
    }),
    nextCursor:
      rows.length > limit && last
        ? Buffer.from(JSON.stringify([last.updated_at, last.id])).toString('base64url')
        : null,
  };
}

const TOOL = {
  name: 'items_list',
  description: 'A page of a collection.',
  inputSchema: { type: 'object' as const, properties: {} },
};

const app = Fastify({ logger: false });
app.post('/mcp', async (request, reply) => {
  const server = new Server({ name: 'same-work', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [TOOL] }));
  server.setRequestHandler('tools/call', (call) => {
    const args = (call.params.arguments ?? {}) as { collection: string; limit?: number };
    const page = itemsList(args.collection, args.limit ?? 50);
    return { content: [{ type: 'text' as const, text: JSON.stringify(page) }], structuredContent: page };
  });
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  // Closed only when the client left before its answer, as /mcp does: a finished exchange holds
  // nothing to release, so every server here handles an exchange the same way.
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
});
app.server.keepAliveTimeout = 72_000;
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);

process.on('SIGTERM', async () => {
  await app.close();
  database.close();
  await test.close();
  process.exit(0);
});
