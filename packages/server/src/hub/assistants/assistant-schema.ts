import { CLIENT_TOOL_NAME_PATTERN, COLLECTION_FUNCTIONS, DioscError, ID_PATTERN } from '@diosc/protocol';
import { describeSchemaErrors } from '@diosc/protocol/validators';
import { Ajv } from 'ajv';
import {
  type AssistantConfig,
  type AssistantSecrets,
  DEFAULT_ASSISTANT_LIMITS,
  DEFAULT_FILES_PERMISSION,
  DEFAULT_GENERATE_FILE,
} from './assistant-config.js';

const SEVERITY = { enum: ['low', 'medium', 'high'] } as const;
const ORIGIN = {
  type: 'string',
  pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$',
  maxLength: 256,
} as const;

/**
 * What an operator may write for an assistant (CLI flags, DIOSC_ASSISTANTS file). Everything but the
 * name is optional and defaulted; unknown fields are refused at every depth.
 */
const INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    instructions: { type: 'string', maxLength: 20_000 },
    model: {
      type: 'object',
      additionalProperties: false,
      required: ['provider'],
      properties: {
        provider: { enum: ['auto', 'scripted', 'openai', 'anthropic', 'openai-compatible'] },
        id: { type: 'string', minLength: 1, maxLength: 128 },
        baseUrl: { type: 'string', pattern: '^https?://', maxLength: 512 },
      },
    },
    allowedOrigins: { type: 'array', maxItems: 32, uniqueItems: true, items: ORIGIN },
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
    serverTools: {
      type: 'object',
      additionalProperties: false,
      properties: {
        account: {
          type: 'object',
          additionalProperties: false,
          required: ['grant'],
          properties: {
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
            connectionId: { type: 'string', maxLength: 64 },
          },
        },
        mcpServers: {
          type: 'array',
          maxItems: 16,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'url'],
            properties: {
              name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$' },
              url: { type: 'string', pattern: '^https?://', maxLength: 1024 },
            },
          },
        },
        generateFile: {
          type: 'object',
          additionalProperties: false,
          properties: {
            enabled: { type: 'boolean' },
            formats: {
              type: 'array',
              uniqueItems: true,
              items: { enum: ['csv', 'md', 'txt', 'json', 'html', 'svg'] },
            },
            maxBytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024 },
          },
        },
        consensus: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,127}$' },
          additionalProperties: SEVERITY,
        },
      },
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
        maxStepsPerTurn: { type: 'integer', minimum: 1, maximum: 50 },
        interruptTimeoutMs: { type: 'integer', minimum: 1_000, maximum: 3_600_000 },
        consensusTimeoutMs: { type: 'integer', minimum: 1_000, maximum: 86_400_000 },
        messagesPerMinute: { type: 'integer', minimum: 1, maximum: 1_000 },
        sessionTtlMs: { type: 'integer', minimum: 60_000, maximum: 30 * 86_400_000 },
      },
    },
    secrets: {
      type: 'object',
      additionalProperties: false,
      properties: {
        providerKey: { type: 'string', minLength: 1, maxLength: 512 },
        identitySecret: { type: 'string', minLength: 32, maxLength: 512 },
        mcpTokens: { type: 'object', additionalProperties: { type: 'string', maxLength: 4096 } },
      },
    },
  },
} as const;

const validate = new Ajv({ strict: true, allowUnionTypes: true }).compile(INPUT_SCHEMA);

export type AssistantInput = Partial<Omit<AssistantConfig, 'name'>> & {
  name: string;
  secrets?: AssistantSecrets;
};

/** Validates operator input and fills in defaults; throws `invalid_input` naming the first problem. */
export function parseAssistantInput(
  input: unknown,
  base?: AssistantConfig,
): { config: AssistantConfig; secrets?: AssistantSecrets } {
  if (!validate(input))
    throw new DioscError('invalid_input', describeSchemaErrors(validate.errors, 'assistant'));
  const value = input as AssistantInput & { serverTools?: Partial<AssistantConfig['serverTools']> };
  const previous = base;
  const config: AssistantConfig = {
    name: value.name,
    instructions:
      value.instructions ?? previous?.instructions ?? 'You are a helpful assistant for this website.',
    model: value.model
      ? { ...value.model, id: value.model.id ?? defaultModelId(value.model.provider) }
      : (previous?.model ?? { provider: 'auto', id: 'auto' }),
    allowedOrigins: value.allowedOrigins ?? previous?.allowedOrigins ?? [],
    browserTools: value.browserTools ?? previous?.browserTools ?? [],
    serverTools: {
      account: value.serverTools?.account ?? previous?.serverTools.account,
      mcpServers: value.serverTools?.mcpServers ?? previous?.serverTools.mcpServers ?? [],
      generateFile: {
        ...DEFAULT_GENERATE_FILE,
        ...previous?.serverTools.generateFile,
        ...value.serverTools?.generateFile,
      },
      consensus: value.serverTools?.consensus ?? previous?.serverTools.consensus ?? {},
    },
    sitemap: value.sitemap ?? previous?.sitemap ?? [],
    files: { ...DEFAULT_FILES_PERMISSION, ...previous?.files, ...value.files },
    limits: { ...DEFAULT_ASSISTANT_LIMITS, ...previous?.limits, ...value.limits },
  };
  if (config.serverTools.account === undefined) delete config.serverTools.account;
  return { config, secrets: value.secrets };
}

function defaultModelId(provider: AssistantConfig['model']['provider']): string {
  return provider === 'scripted' ? 'demo' : provider === 'auto' ? 'auto' : 'default';
}
