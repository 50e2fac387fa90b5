import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { type CallToolResult, createMcpHandler, Server, type Tool } from '@modelcontextprotocol/server';

/** One tool as the foreign server lists it: its schemas are whatever the test wants them to be. */
export interface ForeignTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** What `tools/call` answers; the default is a short text. */
  result?: CallToolResult;
}

export interface ForeignMcpServer {
  url: string;
  /** Every `tools/call` that reached this server, in order. */
  calls: { name: string; arguments: unknown }[];
  close(): Promise<void>;
}

/**
 * An external MCP server on loopback, built on the official server SDK, that lists the tools it is
 * given untouched: a stand-in for a server the owner configured and does not control.
 */
export async function startForeignMcpServer(tools: ForeignTool[]): Promise<ForeignMcpServer> {
  const calls: ForeignMcpServer['calls'] = [];
  const handler = createMcpHandler(() => {
    const server = new Server({ name: 'foreign', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({
      tools: tools.map(({ result: _result, ...tool }) => tool) as unknown as Tool[],
    }));
    server.setRequestHandler('tools/call', (request) => {
      calls.push({ name: request.params.name, arguments: request.params.arguments });
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      return tool?.result ?? { content: [{ type: 'text', text: 'done' }] };
    });
    return server;
  });
  const serve = toNodeHandler(handler);
  const http = createServer((request, response) => {
    void serve(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await handler.close();
    },
  };
}
