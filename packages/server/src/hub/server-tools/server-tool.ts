import type { FileDescriptor } from '@diosc/protocol';

/**
 * A tool that runs on the server: an MCP server's tool, this account's catalog, `generate_file`.
 * Its output is untrusted data for the model; nothing it returns can change the registry, the
 * sitemap or a consent decision, because the hub reads only `output` from it.
 */
export interface ServerTool {
  /** The name the model sees. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  execute(args: Record<string, unknown>, context: ServerToolContext): Promise<unknown>;
  /** The files a result delivered (`generate_file`): announced as `file.ready`, kept as chips. */
  filesOf?(result: unknown): FileDescriptor[];
}

export interface ServerToolContext {
  signal: AbortSignal;
  assistantId: string;
  conversationId: string;
  turnId: string;
  /** Unique per tool call and stable across a restart: a request ID for idempotent writes. */
  toolCallId: string;
  visitorId: string;
}

/** The server tools of one assistant, loaded once per turn run (MCP servers are listed then). */
export interface ServerToolSet {
  tools: ServerTool[];
  /**
   * External MCP servers that could not be listed, with a stable code (`fetch_refused` for an
   * address the guard refused) and a safe reason (the owner's tools preview shows the reason).
   */
  failures?: { server: string; code?: string; message: string }[];
  close(): Promise<void>;
}
