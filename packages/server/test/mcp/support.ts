import type { TestServer } from '@diosc/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { GrantEntry } from '../../src/connections/grant.js';

/** Creates an HTTP MCP connection on the test server's owner account; returns its one-time token. */
export async function createConnection(
  server: TestServer,
  grant: GrantEntry[],
  options: { expiresInMs?: number } = {},
): Promise<{ id: string; token: string; actor: string }> {
  const { connection, token } = await server.app.diosc.connections.createMcp(server.accountId, {
    displayName: 'Test assistant',
    grant,
    expiresInMs: options.expiresInMs,
    provenance: 'test',
  });
  return { id: connection.id, token, actor: `connection:${connection.id}` };
}

/** The official MCP client over real HTTP, authenticated with a bearer token. */
export async function connectClient(server: TestServer, token: string): Promise<Client> {
  const client = new Client({ name: 'diosc-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to /mcp, for what the official client will not send. */
export async function postMcp(
  server: Pick<TestServer, 'url'>,
  body: unknown,
  headers: Record<string, string> = {},
  path = '/mcp',
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const ALL_NOTES: GrantEntry = {
  collection: 'notes',
  functions: ['items_list', 'item_read', 'item_write', 'item_delete'],
};

/** The JSON a tool result carries as text must equal its structured content. */
export function parseResult(result: unknown): { structured: unknown; text: unknown; isError: boolean } {
  const value = result as {
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  const text = value.content?.find((block) => block.type === 'text')?.text;
  return {
    structured: value.structuredContent,
    text: text === undefined ? undefined : JSON.parse(text),
    isError: value.isError === true,
  };
}
