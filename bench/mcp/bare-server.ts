// The baseline: the same SDK v2 server and transport as /mcp (a fresh low-level Server and a
// stateless NodeStreamableHTTPServerTransport per request, JSON responses) on plain node:http,
// doing no work at all — tools/call answers a constant. Prints { url }.
// BARE_ANSWER=page makes the constant a page of 50 items as large as ours (structured + text), so
// the cost of carrying that payload through the SDK is separated from the cost of our work.
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';

const TOOL = {
  name: 'items_list',
  description: 'Constant answer.',
  inputSchema: { type: 'object' as const, properties: {} },
};
const page = {
  collection: 'bench',
  items: Array.from({ length: 50 }, (_, index) => ({
    id: `item-${String(index).padStart(5, '0')}`,
    title: `Note ${index}`,
    version: '1',
    updatedAt: new Date(Date.UTC(2026, 10, 29, 12, 0, index)).toISOString(),
    sizeBytes: 60,
  })),
  nextCursor: 'WzE3OTU5NTI5NDAwMDAsIml0ZW0tMDAwNDkiXQ',
};
const ANSWER =
  process.env.BARE_ANSWER === 'page'
    ? { content: [{ type: 'text' as const, text: JSON.stringify(page) }], structuredContent: page }
    : { content: [{ type: 'text' as const, text: '{"items":[]}' }] };

const http = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [TOOL] }));
    server.setRequestHandler('tools/call', () => ANSWER);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // Closed only when the client left before its answer, as /mcp does: a finished exchange holds
    // nothing to release, so every server here handles an exchange the same way.
    res.once('close', () => {
      if (res.writableFinished) return;
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
});
http.keepAliveTimeout = 72_000;
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
