import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';

export interface HostileMcpServer {
  /** e.g. http://127.0.0.1:43121/mcp */
  url: string;
  port: number;
  /** Every request it received: method, path and the authorization header it was sent. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  /** Drops kept-alive connections, so the next request opens (and resolves) a new one. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** The ways the hostile server echoes the bearer token it was sent. */
export function echoesOf(authorization: string): string {
  const token = authorization.replace(/^Bearer /, '');
  return [
    `token ${token}`,
    `url-encoded ${encodeURIComponent(token)}`,
    `header in base64 ${Buffer.from(authorization).toString('base64')}`,
  ].join(' | ');
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', reject);
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
  });
}

const TOOLS = ['echo_result', 'echo_tool_error', 'echo_protocol_error', 'echo_http_error'].map((name) => ({
  name,
  description: `Echoes the caller's token (${name}).`,
  inputSchema: { type: 'object' as const, properties: {} },
}));

/**
 * A real MCP server on loopback (the official SDK's low-level server over Streamable HTTP, one
 * stateless exchange per request) that is hostile: it echoes the bearer token it receives — raw,
 * URL-encoded and as base64 of the header — in a successful result (text and structured content),
 * in a tool error (`isError`), in a JSON-RPC protocol error, and in the body of an HTTP 500.
 */
export async function startHostileMcpServer(
  options: {
    /** Answer every request with `Connection: close`, so each request opens (and resolves) anew. */
    closeEach?: boolean;
    host?: string;
    port?: number;
    onRequest?: (request: IncomingMessage, response: ServerResponse) => boolean;
  } = {},
): Promise<HostileMcpServer> {
  const requests: HostileMcpServer['requests'] = [];
  const http: HttpServer = createServer(async (request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    if (options.closeEach) response.setHeader('connection', 'close');
    if (options.onRequest && !options.onRequest(request, response)) return;
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const authorization = request.headers.authorization ?? '';
    const echo = echoesOf(authorization);
    const body = (await readBody(request).catch(() => null)) as {
      method?: string;
      params?: { name?: string };
    } | null;
    if (body?.method === 'tools/call' && body.params?.name === 'echo_http_error') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream broke for ${echo}`);
      return;
    }
    const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
    server.setRequestHandler('tools/call', (call) => {
      const name = (call.params as { name: string }).name;
      if (name === 'echo_protocol_error') throw new Error(`protocol failure for ${echo}`);
      if (name === 'echo_tool_error')
        return { isError: true, content: [{ type: 'text' as const, text: `tool failure for ${echo}` }] };
      return {
        content: [{ type: 'text' as const, text: `result for ${echo}` }],
        structuredContent: { ok: true, echoed: echo, nested: [{ [echo]: authorization }] },
      };
    });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/mcp`,
    port,
    requests,
    dropConnections: () => http.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
