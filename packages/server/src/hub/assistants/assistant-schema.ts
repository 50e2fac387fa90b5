import { ASSISTANT_FIELD_SCHEMAS, DioscError, MCP_SERVER_NAME_PATTERN } from '@diosc/protocol';
import { describeSchemaErrors } from '@diosc/protocol/validators';
import { Ajv, type ValidateFunction } from 'ajv';
import { DEMO_MODEL_ID } from '../model/scripted/demo-script.js';
import {
  type AssistantConfig,
  type AssistantSecrets,
  DEFAULT_ASSISTANT_LIMITS,
  DEFAULT_FILES_PERMISSION,
  DEFAULT_GENERATE_FILE,
  type ServerToolsConfig,
} from './assistant-config.js';

const F = ASSISTANT_FIELD_SCHEMAS;

/**
 * What an operator may write for an assistant (CLI flags, DIOSC_ASSISTANTS file). Everything but the
 * name is optional and defaulted; unknown fields are refused at every depth. The fields are the
 * protocol's (`ASSISTANT_FIELD_SCHEMAS`), shared with the owner API's bodies; only the secrets and
 * the account's `connectionId` are written differently here.
 */
const INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: F.name,
    instructions: F.instructions,
    model: F.model,
    allowedOrigins: F.allowedOrigins,
    browserTools: F.browserTools,
    serverTools: {
      type: 'object',
      additionalProperties: false,
      properties: {
        // `null` removes the catalog access (its app connection is then revoked).
        account: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['grant'],
          properties: { grant: F.grant, connectionId: { type: 'string', maxLength: 64 } },
        },
        mcpServers: {
          type: 'array',
          maxItems: 16,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'url'],
            properties: { name: F.mcpServerName, url: F.mcpServerUrl },
          },
        },
        generateFile: F.generateFile,
        consensus: F.consensus,
      },
    },
    sitemap: F.sitemap,
    outsideLinks: F.outsideLinks,
    files: F.files,
    limits: F.limits,
    secrets: {
      type: 'object',
      additionalProperties: false,
      properties: {
        providerKey: F.providerKey,
        identitySecret: F.identitySecret,
        mcpTokens: {
          type: 'object',
          propertyNames: { pattern: MCP_SERVER_NAME_PATTERN },
          additionalProperties: { type: 'string', maxLength: 4096 },
        },
      },
    },
  },
} as const;

// Compiled on first use, as the protocol's validators are: a start that saves no assistant skips it.
let compiled: ValidateFunction | undefined;
const validator = () => (compiled ??= new Ajv({ strict: true, allowUnionTypes: true }).compile(INPUT_SCHEMA));

export type AssistantInput = Partial<Omit<AssistantConfig, 'name'>> & {
  name: string;
  secrets?: AssistantSecrets;
};

/** Validates operator input and fills in defaults; throws `invalid_input` naming the first problem. */
export function parseAssistantInput(
  input: unknown,
  base?: AssistantConfig,
): { config: AssistantConfig; secrets?: AssistantSecrets } {
  const validate = validator();
  if (!validate(input))
    throw new DioscError('invalid_input', describeSchemaErrors(validate.errors, 'assistant'));
  const value = input as AssistantInput & {
    serverTools?: Partial<Omit<ServerToolsConfig, 'account'>> & {
      account?: ServerToolsConfig['account'] | null;
    };
  };
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
      account: accountOf(value.serverTools?.account, previous?.serverTools.account),
      mcpServers: value.serverTools?.mcpServers ?? previous?.serverTools.mcpServers ?? [],
      generateFile: {
        ...DEFAULT_GENERATE_FILE,
        ...previous?.serverTools.generateFile,
        ...value.serverTools?.generateFile,
      },
      consensus: value.serverTools?.consensus ?? previous?.serverTools.consensus ?? {},
    },
    sitemap: value.sitemap ?? previous?.sitemap ?? [],
    outsideLinks: value.outsideLinks ?? previous?.outsideLinks ?? false,
    files: { ...DEFAULT_FILES_PERMISSION, ...previous?.files, ...value.files },
    limits: { ...DEFAULT_ASSISTANT_LIMITS, ...previous?.limits, ...value.limits },
  };
  if (config.serverTools.account === undefined) delete config.serverTools.account;
  return { config, secrets: value.secrets };
}

/**
 * The account section after a write: `null` removes it, a new grant keeps the app connection that
 * already carries the old one (so a change of grant is a change of that connection's grant).
 */
function accountOf(
  given: ServerToolsConfig['account'] | null | undefined,
  previous: ServerToolsConfig['account'],
): ServerToolsConfig['account'] {
  if (given === null) return undefined;
  if (given === undefined) return previous;
  const connectionId = given.connectionId ?? previous?.connectionId;
  return { grant: given.grant, ...(connectionId ? { connectionId } : {}) };
}

function defaultModelId(provider: AssistantConfig['model']['provider']): string {
  return provider === 'scripted' ? DEMO_MODEL_ID : provider === 'auto' ? 'auto' : 'default';
}
