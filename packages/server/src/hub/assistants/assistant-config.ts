import {
  type ApprovalSeverity,
  type AssistantFilesSettings,
  type AssistantLimits,
  type GrantEntry,
  VISITOR_UPLOAD_TYPES,
} from '@diosc/protocol';

/**
 * An assistant as the operator configures it (CLI, a JSON/YAML file, later the portal). Nothing in it
 * is a secret: keys and tokens live in `AssistantSecrets`, encrypted at rest.
 */
export interface AssistantConfig {
  name: string;
  instructions: string;
  model: {
    provider: 'auto' | 'scripted' | 'openai' | 'anthropic' | 'openai-compatible';
    id: string;
    baseUrl?: string;
  };
  /** Exact origins (scheme://host[:port]) whose pages may open visitor sessions. */
  allowedOrigins: string[];
  /** Raw browser tools the assistant declares; a page supplies only the handler. */
  browserTools: DeclaredBrowserTool[];
  serverTools: ServerToolsConfig;
  sitemap: { path: string; title: string; description?: string }[];
  /** See `AssistantPublicView.outsideLinks`; stored configurations from before it read as false. */
  outsideLinks?: boolean;
  files: FilesPermission;
  limits: AssistantLimits;
}

export interface DeclaredBrowserTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ServerToolsConfig {
  /** This account's own catalog, through an app connection with an exact grant. */
  account?: { grant: GrantEntry[]; connectionId?: string };
  /** External MCP servers (Streamable HTTP); a bearer token, if any, is in the secrets. */
  mcpServers: { name: string; url: string }[];
  generateFile: { enabled: boolean; formats: string[]; maxBytes: number };
  /** Server tools (by the name the model sees) that wait for the visitor's decision first. */
  consensus: Record<string, ApprovalSeverity>;
}

/**
 * Files visitors deliver (a browser tool's file, the widget's file picker) and the quotas every
 * stored file counts against, `generate_file`'s included: the wire's `AssistantFilesSettings`. Read
 * through `filesPermissionOf`, so an assistant stored before a field existed gets its default.
 */
export type FilesPermission = AssistantFilesSettings;
export type { AssistantLimits };

export interface AssistantSecrets {
  providerKey?: string;
  identitySecret?: string;
  /** Bearer tokens of external MCP servers, by server name. */
  mcpTokens?: Record<string, string>;
}

export const DEFAULT_ASSISTANT_LIMITS: AssistantLimits = {
  maxStepsPerTurn: 12,
  interruptTimeoutMs: 120_000,
  consensusTimeoutMs: 600_000,
  messagesPerMinute: 20,
  sessionTtlMs: 24 * 60 * 60 * 1000,
};

/**
 * Uploads start off: an assistant on a storefront must not take visitors' files until its owner
 * says which, and how large.
 */
export const DEFAULT_FILES_PERMISSION: FilesPermission = {
  enabled: false,
  maxFileBytes: 10 * 1024 * 1024,
  maxConversationBytes: 50 * 1024 * 1024,
  maxVisitorBytes: 200 * 1024 * 1024,
  maxAssistantBytes: 5 * 1024 * 1024 * 1024,
  retentionMs: 30 * 24 * 60 * 60 * 1000,
  inlineTextMaxBytes: 32 * 1024,
  modelImages: 'auto',
  allowedTypes: [...VISITOR_UPLOAD_TYPES],
};

/** The assistant's file permission with a default for every field it was stored without. */
export function filesPermissionOf(config: AssistantConfig): FilesPermission {
  return { ...DEFAULT_FILES_PERMISSION, ...config.files };
}

export const DEFAULT_GENERATE_FILE = {
  enabled: false,
  formats: ['csv', 'md', 'txt', 'json', 'html', 'svg'],
  maxBytes: 1024 * 1024,
};
