import { COLLECTION_FUNCTIONS, ID_PATTERN } from '../catalog/schemas.js';
import { CLIENT_TOOL_NAME_PATTERN } from '../hub-api/page.js';
import { GENERATE_FILE_FORMATS, MODEL_PROVIDERS } from './wire.js';

/**
 * JSON Schemas of an assistant's settings, shared by every way of writing one (the owner API here,
 * the CLI and the assistants file in the server's `assistant-schema.ts`), and the owner API's
 * request bodies. Unknown fields are refused at every depth (`additionalProperties: false`).
 */
const SEVERITY = { enum: ['low', 'medium', 'high'] } as const;

/** An exact origin: scheme, host and optional port — no path, no trailing slash. */
export const ORIGIN_PATTERN = '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$';
/** An external MCP server's name: the prefix of its tools' names (`<name>__<tool>`). */
export const MCP_SERVER_NAME_PATTERN = '^[a-z][a-z0-9_]{0,31}$';
/** A server tool's name as the model sees it (a Consensus key). */
export const SERVER_TOOL_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_.-]{0,127}$';

export const ASSISTANT_LIMIT_RANGES = {
  maxStepsPerTurn: { minimum: 1, maximum: 50 },
  interruptTimeoutMs: { minimum: 1_000, maximum: 3_600_000 },
  consensusTimeoutMs: { minimum: 1_000, maximum: 86_400_000 },
  messagesPerMinute: { minimum: 1, maximum: 1_000 },
  sessionTtlMs: { minimum: 60_000, maximum: 30 * 86_400_000 },
} as const;

const integer = (range: { minimum: number; maximum: number }) => ({ type: 'integer', ...range }) as const;

export const ASSISTANT_FIELD_SCHEMAS = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  instructions: { type: 'string', maxLength: 20_000 },
  model: {
    type: 'object',
    additionalProperties: false,
    required: ['provider'],
    properties: {
      provider: { enum: [...MODEL_PROVIDERS] },
      id: { type: 'string', minLength: 1, maxLength: 128 },
      baseUrl: { type: 'string', pattern: '^https?://', maxLength: 512 },
    },
  },
  allowedOrigins: {
    type: 'array',
    maxItems: 32,
    uniqueItems: true,
    items: { type: 'string', pattern: ORIGIN_PATTERN, maxLength: 256 },
  },
  browserTools: {
    type: 'array',
    maxItems: 64,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description', 'inputSchema'],
      properties: {
        name: { type: 'string', pattern: CLIENT_TOOL_NAME_PATTERN },
        description: { type: 'string', minLength: 1, maxLength: 1024 },
        inputSchema: { type: 'object' },
      },
    },
  },
  grant: {
    type: 'array',
    maxItems: 100,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'functions'],
      properties: {
        collection: { type: 'string', pattern: ID_PATTERN },
        functions: {
          type: 'array',
          uniqueItems: true,
          minItems: 1,
          items: { enum: [...COLLECTION_FUNCTIONS] },
        },
      },
    },
  },
  mcpServerName: { type: 'string', pattern: MCP_SERVER_NAME_PATTERN },
  mcpServerUrl: { type: 'string', pattern: '^https?://', maxLength: 1024 },
  mcpToken: { type: 'string', minLength: 1, maxLength: 4096 },
  generateFile: {
    type: 'object',
    additionalProperties: false,
    properties: {
      enabled: { type: 'boolean' },
      formats: { type: 'array', uniqueItems: true, items: { enum: [...GENERATE_FILE_FORMATS] } },
      maxBytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024 },
    },
  },
  consensus: {
    type: 'object',
    maxProperties: 256,
    propertyNames: { pattern: SERVER_TOOL_NAME_PATTERN },
    additionalProperties: SEVERITY,
  },
  sitemap: {
    type: 'array',
    maxItems: 100,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['path', 'title'],
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 512 },
        title: { type: 'string', minLength: 1, maxLength: 200 },
        description: { type: 'string', maxLength: 1000 },
      },
    },
  },
  /** Whether the widget makes a link in the assistant's text that leaves the page's origin clickable. */
  outsideLinks: { type: 'boolean' },
  files: {
    type: 'object',
    additionalProperties: false,
    properties: {
      enabled: { type: 'boolean' },
      maxFileBytes: { type: 'integer', minimum: 1, maximum: 100 * 1024 * 1024 },
      maxConversationBytes: { type: 'integer', minimum: 1, maximum: 1024 * 1024 * 1024 },
      maxVisitorBytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024 * 1024 },
      maxAssistantBytes: { type: 'integer', minimum: 1, maximum: 1024 * 1024 * 1024 * 1024 },
      allowedTypes: {
        type: 'array',
        maxItems: 64,
        items: { type: 'string', pattern: '^[a-z]+/[a-z0-9.+-]+$' },
      },
      retentionMs: { type: 'integer', minimum: 1_000, maximum: 3_650 * 86_400_000 },
      inlineTextMaxBytes: { type: 'integer', minimum: 0, maximum: 1024 * 1024 },
      modelImages: { enum: ['auto', 'always', 'never'] },
    },
  },
  limits: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxStepsPerTurn: integer(ASSISTANT_LIMIT_RANGES.maxStepsPerTurn),
      interruptTimeoutMs: integer(ASSISTANT_LIMIT_RANGES.interruptTimeoutMs),
      consensusTimeoutMs: integer(ASSISTANT_LIMIT_RANGES.consensusTimeoutMs),
      messagesPerMinute: integer(ASSISTANT_LIMIT_RANGES.messagesPerMinute),
      sessionTtlMs: integer(ASSISTANT_LIMIT_RANGES.sessionTtlMs),
    },
  },
  providerKey: { type: 'string', minLength: 1, maxLength: 512 },
  identitySecret: { type: 'string', minLength: 32, maxLength: 512 },
} as const;

const F = ASSISTANT_FIELD_SCHEMAS;
/** The same schema, also accepting `null` (clear a secret, remove a section). */
const nullable = <S extends { type: string }>(schema: S) =>
  ({ ...schema, type: [schema.type, 'null'] }) as const;

const OWNER_SERVER_TOOLS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account: nullable({
      type: 'object',
      additionalProperties: false,
      required: ['grant'],
      properties: { grant: F.grant },
    }),
    mcpServers: {
      type: 'array',
      maxItems: 16,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'url'],
        properties: { name: F.mcpServerName, url: F.mcpServerUrl, token: nullable(F.mcpToken) },
      },
    },
    generateFile: F.generateFile,
    consensus: F.consensus,
  },
} as const;

const WRITE_PROPERTIES = {
  name: F.name,
  instructions: F.instructions,
  model: F.model,
  allowedOrigins: F.allowedOrigins,
  browserTools: F.browserTools,
  serverTools: OWNER_SERVER_TOOLS,
  sitemap: F.sitemap,
  outsideLinks: F.outsideLinks,
  files: F.files,
  limits: F.limits,
  providerKey: nullable(F.providerKey),
  identitySecret: nullable(F.identitySecret),
} as const;

export const ASSISTANT_CREATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: WRITE_PROPERTIES,
} as const;

export const ASSISTANT_UPDATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: WRITE_PROPERTIES,
} as const;

/** A model spec to test: the provider's id is required here (no defaulting for a check). */
const TEST_MODEL = {
  type: 'object',
  additionalProperties: false,
  required: ['provider', 'id'],
  properties: F.model.properties,
} as const;

export const TEST_CONNECTION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { model: TEST_MODEL, providerKey: F.providerKey },
} as const;

export const TOOLS_PREVIEW_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    browserTools: F.browserTools,
    sitemap: F.sitemap,
    consensus: F.consensus,
    pageTools: {
      type: 'array',
      maxItems: 128,
      uniqueItems: true,
      items: { type: 'string', pattern: CLIENT_TOOL_NAME_PATTERN },
    },
    connectMcp: { type: 'boolean' },
  },
} as const;

export const MCP_CHECK_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { name: F.mcpServerName, url: F.mcpServerUrl, token: F.mcpToken },
} as const;

export const SITEMAP_TEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: { path: { type: 'string', maxLength: 2_048 }, routes: F.sitemap },
} as const;

export const SITEMAP_IMPORT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string', pattern: '^https?://', maxLength: 2_048 },
    xml: { type: 'string', maxLength: 5 * 1024 * 1024 },
    origin: { type: 'string', pattern: ORIGIN_PATTERN, maxLength: 256 },
  },
} as const;

export const ASSISTANT_ADMIN_BODY_SCHEMAS = {
  assistantCreate: ASSISTANT_CREATE_SCHEMA,
  assistantUpdate: ASSISTANT_UPDATE_SCHEMA,
  testConnection: TEST_CONNECTION_SCHEMA,
  toolsPreview: TOOLS_PREVIEW_SCHEMA,
  mcpCheck: MCP_CHECK_SCHEMA,
  sitemapTest: SITEMAP_TEST_SCHEMA,
  sitemapImport: SITEMAP_IMPORT_SCHEMA,
} as const;

export type AssistantAdminBodyName = keyof typeof ASSISTANT_ADMIN_BODY_SCHEMAS;
