// The baseline for the round-trip latency: the least a server can do for "POST a result, get the
// next event on an open SSE stream" — plain node:http, no store, no model. GET /events opens the
// stream; POST /answer reads and parses the body, writes one SSE event the size of our `interrupt`
// event to that stream, and acknowledges. Prints { url }; answers IPC with its CPU time or memory.
import { createServer, type ServerResponse } from 'node:http';

const streams = new Map<string, ServerResponse>();
let nextId = 0;

/** As large as the hub's `interrupt` event for read_page, so both send a comparable frame. */
function interruptEvent(id: number): string {
  const data = {
    type: 'interrupt',
    turnId: 'trn_00000000-0000-0000-0000-000000000000',
    interrupt: {
      id: `tc_${String(id).padStart(8, '0')}-0000-0000-0000-000000000000`,
      turnId: 'trn_00000000-0000-0000-0000-000000000000',
      conversationId: 'cnv_00000000-0000-0000-0000-000000000000',
      name: 'browser:read_page',
      tool: 'read_page',
      kind: 'tool',
      args: {},
      expiresAt: new Date().toISOString(),
    },
    id,
    at: new Date().toISOString(),
  };
  return `id: ${id}\nevent: interrupt\ndata: ${JSON.stringify(data)}\n\n`;
}

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const key = url.searchParams.get('stream') ?? '';
  if (req.method === 'GET' && url.pathname === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    streams.set(key, res);
    res.once('close', () => streams.delete(key));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/answer') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      streams.get(key)?.write(interruptEvent(++nextId));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
    });
    return;
  }
  res.writeHead(404).end();
});
http.keepAliveTimeout = 72_000;
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
// Over IPC: CPU time used so far (asked for between, never during, the timed round trips), or the
// memory after a full GC (what an open stream costs on bare node:http).
process.on('message', async (message: { type?: string }) => {
  if (message.type === 'measure') {
    for (let round = 0; round < 4; round++) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.send?.({ type: 'measure', memory: process.memoryUsage(), streams: streams.size });
  } else process.send?.({ type: 'usage', cpu: process.cpuUsage() });
});
process.on('SIGTERM', () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
