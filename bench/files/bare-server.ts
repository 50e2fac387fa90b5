// The baseline: a bare Fastify route with the same @fastify/multipart that reads each uploaded file
// to the end and discards it — no session, no store, no type check. Prints { url }.
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { addMemoryProbe } from './memory-probe.js';

const app = Fastify({ logger: false });
await app.register(multipart, { limits: { fileSize: 64 * 1024 * 1024, files: 1 } });
addMemoryProbe(app);
app.post('/upload', async (request, reply) => {
  const part = await request.file();
  let bytes = 0;
  for await (const chunk of part!.file) bytes += (chunk as Buffer).length;
  reply.status(201);
  return { sizeBytes: bytes };
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
