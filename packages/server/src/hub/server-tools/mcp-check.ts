import type { McpCheckResult } from '@diosc/protocol';
import { Client, type FetchLike, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { safeProviderError } from '../model/safe-provider-error.js';
import type { GuardedFetch } from '../outbound/guarded-fetch.js';
import { createSecretRedactor } from '../outbound/secret-redactor.js';
import { boundedMcpValidator, mcpFailureCode, mcpToolName } from './mcp-server-tools.js';

const CHECK_TIMEOUT_MS = 10_000;
const MAX_LISTED = 64;

/**
 * The owner's "list tools" check of an external MCP server: the official MCP client over Streamable
 * HTTP, through the guarded fetch, listing the tools under the names the model would see. The
 * token goes only into that server's request headers; a failure answers a safe reason.
 */
export async function checkMcpServer(
  server: { name: string; url: string },
  token: string | undefined,
  fetch: GuardedFetch,
): Promise<McpCheckResult> {
  const redactor = createSecretRedactor([token]);
  // Every client the hub makes compiles a server's schemas through the bounded seam only.
  const client = new Client(
    { name: 'diosc-hub', version: '0.1.0' },
    { jsonSchemaValidator: boundedMcpValidator },
  );
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    fetch: fetch as FetchLike,
  });
  try {
    await client.connect(transport, { timeout: CHECK_TIMEOUT_MS });
    const listed = await client.listTools(undefined, { timeout: CHECK_TIMEOUT_MS });
    return {
      ok: true,
      tools: listed.tools.slice(0, MAX_LISTED).map((tool) => ({
        name: mcpToolName(server.name, tool.name),
        description: redactor.text((tool.description ?? tool.name).slice(0, 1024)),
      })),
    };
  } catch (error) {
    return {
      ok: false,
      error: { code: mcpFailureCode(error), message: safeProviderError(redactor.error(error), [token]) },
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
