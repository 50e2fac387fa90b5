import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the scripted server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ChatCompletionsServer {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** What the server answers next: streamed chunks (OpenAI's `chat.completion.chunk`), or an HTTP error. */
export type Reply = { chunks: Record<string, unknown>[] } | { status: number; body: Record<string, unknown> };

/**
 * A scripted server on real loopback HTTP that speaks OpenAI's Chat Completions streaming wire:
 * `text/event-stream`, one `data: {json}` line per chunk, then `data: [DONE]`. It is the wire an
 * Ollama, llama.cpp, vLLM or LM Studio user's hub talks to. Replies are served one per request.
 */
export async function startChatCompletionsServer(replies: Reply[]): Promise<ChatCompletionsServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (request, response) => {
    const raw: Buffer[] = [];
    for await (const chunk of request) raw.push(chunk as Buffer);
    const text = Buffer.concat(raw).toString('utf8');
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: text ? JSON.parse(text) : {},
    });
    const reply = replies[requests.length - 1];
    if (request.url !== '/v1/chat/completions' || !reply) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no scripted reply for ${request.url}` } }));
      return;
    }
    if ('status' in reply) {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of reply.chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The chunks of one streamed reply: `text` in pieces, then optionally one tool call with its
 * arguments split across two deltas (as real servers do), then the finish reason and usage.
 */
export function streamedReply(
  model: string,
  reply: { text: string[]; toolCall?: { id: string; name: string; arguments: Record<string, unknown> } },
): Record<string, unknown>[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_764_000_000, model };
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks = [
    choice({ role: 'assistant', content: '' }),
    ...reply.text.map((content) => choice({ content })),
  ];
  const call = reply.toolCall;
  if (call) {
    const args = JSON.stringify(call.arguments);
    const half = Math.floor(args.length / 2);
    const head = {
      index: 0,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: args.slice(0, half) },
    };
    chunks.push(
      choice({ tool_calls: [head] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
    );
  }
  chunks.push(choice({}, call ? 'tool_calls' : 'stop'));
  return [
    ...chunks,
    { ...base, choices: [], usage: { prompt_tokens: 42, completion_tokens: 9, total_tokens: 51 } },
  ];
}
