import { DioscError } from '@diosc/protocol';
import { compileForeignSchema } from '@diosc/protocol/validators';
import {
  Client,
  type FetchLike,
  type JsonSchemaValidatorResult,
  type jsonSchemaValidator,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import { safeProviderError } from '../model/safe-provider-error.js';
import type { GuardedFetch } from '../outbound/guarded-fetch.js';
import type { SecretRedactor } from '../outbound/secret-redactor.js';
import type { ServerTool, ServerToolSet } from './server-tool.js';

const MAX_TOOLS_PER_SERVER = 64;
const CONNECT_TIMEOUT_MS = 10_000;
const OUTPUT_MAX_CHARS = 32_000;

/** `<server>__<tool>`, reduced to the characters every model provider accepts in a tool name. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && (part as { type?: string }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n')
    .slice(0, OUTPUT_MAX_CHARS);
}

/** A failure's stable code: our own refusal of the address, else the server's failure. */
export function mcpFailureCode(error: unknown): 'fetch_refused' | 'tool_failed' {
  return (error as { code?: unknown } | null)?.code === 'fetch_refused' ? 'fetch_refused' : 'tool_failed';
}

/**
 * The MCP client checks a tool's result against the server's `outputSchema`: that schema is the
 * server's, so it is compiled like every foreign schema, never by the client's own backtracking ajv.
 */
export const boundedMcpValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown) {
    const check = compileForeignSchema(schema, 'The MCP output schema');
    return (input: unknown): JsonSchemaValidatorResult<T> => {
      const problem = check(input);
      return problem === undefined
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: problem };
    };
  },
};

/**
 * The tools of an assistant's external MCP servers, through the official MCP client over
 * Streamable HTTP and the guarded fetch (every connection's address checked, redirects by hand).
 * A server's bearer token (stored encrypted) goes only into that server's request headers; every
 * text a server sends back — a result, a tool error, an HTTP error body, a protocol error — passes
 * the assistant's redactor before the model, an event or a log line sees it. A server that cannot
 * be reached contributes no tools; the turn goes on without them.
 */
export async function connectMcpServers(
  servers: readonly { name: string; url: string }[],
  tokens: Readonly<Record<string, string>>,
  log: FastifyBaseLogger,
  outbound: { fetch: GuardedFetch; redactor: SecretRedactor },
): Promise<ServerToolSet> {
  const { redactor } = outbound;
  const clients: Client[] = [];
  const tools: ServerTool[] = [];
  const failures: { server: string; code: string; message: string }[] = [];
  for (const server of servers) {
    const token = tokens[server.name];
    const client = new Client(
      { name: 'diosc-hub', version: '0.1.0' },
      { jsonSchemaValidator: boundedMcpValidator },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
      fetch: outbound.fetch as FetchLike,
    });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
      clients.push(client);
      for (const tool of listed.tools.slice(0, MAX_TOOLS_PER_SERVER)) {
        const inputSchema = (redactor.value(tool.inputSchema) as Record<string, unknown>) ?? {
          type: 'object',
        };
        try {
          compileForeignSchema(inputSchema);
        } catch (error) {
          // Its arguments could not be checked at a bounded cost: the model is never offered it.
          log.warn(
            { server: server.name, tool: redactor.text(tool.name), err: redactor.error(error) },
            'MCP tool refused',
          );
          continue;
        }
        tools.push({
          name: mcpToolName(server.name, redactor.text(tool.name)),
          description: redactor.text(`[${server.name}] ${tool.description ?? tool.name}`.slice(0, 1024)),
          inputSchema,
          async execute(args, context) {
            let result: Awaited<ReturnType<Client['callTool']>>;
            try {
              result = await client.callTool(
                { name: tool.name, arguments: args },
                { signal: context.signal },
              );
            } catch (error) {
              // An HTTP error body or a JSON-RPC error is the server's text: it may echo the token.
              throw new DioscError(mcpFailureCode(error), redactor.error(error).slice(0, 500));
            }
            if (result.isError)
              throw new DioscError(
                'tool_failed',
                redactor.text(textOf(result.content)) || 'The MCP server reported an error.',
              );
            return redactor.value(result.structuredContent ?? { text: textOf(result.content) });
          },
        });
      }
    } catch (error) {
      // The model simply lacks these tools. The reason is the server's text: the log and the owner
      // get it redacted, never the raw error (its URL's query, an echoed header).
      const code = mcpFailureCode(error);
      const message = safeProviderError(redactor.error(error), []);
      log.warn({ server: server.name, code, err: message }, 'MCP server unavailable');
      failures.push({ server: server.name, code, message });
      await client.close().catch(() => undefined);
    }
  }
  return {
    tools,
    failures,
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    },
  };
}
