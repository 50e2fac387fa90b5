// The baseline for the upstream bytes: the AI SDK's own chat route, as its docs write it — a
// stateless `streamText` over whatever messages the client sends, streamed back as a UI message
// stream — with `read_page` as a client-side tool (no `execute`) and the same scripted model as
// our hub. Plain node:http. Prints { url }. Also the no-persistence baseline of the step-cost
// measurement: SDK_BENCH_CALLS browser round trips per turn (1 by default; 0 is a chat turn), and
// over IPC { type: 'usage' } answers the CPU time this process has used so far.
import { createServer } from 'node:http';
import { BUILT_IN_BROWSER_TOOLS } from '@diosc/server/testing';
import { convertToModelMessages, jsonSchema, streamText, tool, type UIMessage } from 'ai';
import { benchModel } from './bench-model.js';
import { roundTripScript, TOOL } from './fixtures.js';

const model = benchModel(roundTripScript(Number(process.env.SDK_BENCH_CALLS ?? 1)), 'scripted-bench');
const readPage = BUILT_IN_BROWSER_TOOLS.find((candidate) => candidate.name === TOOL)!;
const tools = {
  [TOOL]: tool({
    description: readPage.description,
    inputSchema: jsonSchema<Record<string, never>>(readPage.inputSchema as never),
  }),
};

const http = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const { messages } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: UIMessage[] };
      const result = streamText({
        model,
        messages: await convertToModelMessages(messages, { tools }),
        tools,
      });
      result.pipeUIMessageStreamToResponse(res);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/api/chat` })}\n`);
});
process.on('message', (message: { type?: string }) => {
  if (message.type === 'usage') process.send?.({ type: 'usage', cpu: process.cpuUsage() });
});
process.on('SIGTERM', () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
