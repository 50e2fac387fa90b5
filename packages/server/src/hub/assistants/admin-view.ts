import type { AssistantView, AssistantWrite } from '@diosc/protocol';
import { filesPermissionOf } from './assistant-config.js';
import type { AssistantRecord, SecretsPatch, SecretsPresence } from './assistants.js';

/**
 * An assistant as the owner API shows it: its settings, and of each secret only whether it is set.
 * Built field by field from the record, so nothing stored later can slip into a response.
 */
export function assistantView(record: AssistantRecord, secrets: SecretsPresence): AssistantView {
  const { config } = record;
  const account = config.serverTools.account;
  return {
    id: record.id,
    name: config.name,
    publishableKey: record.publishableKey,
    instructions: config.instructions,
    model: {
      provider: config.model.provider,
      id: config.model.id,
      ...(config.model.baseUrl !== undefined ? { baseUrl: config.model.baseUrl } : {}),
    },
    allowedOrigins: [...config.allowedOrigins],
    browserTools: config.browserTools.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
    })),
    serverTools: {
      account: account ? { grant: account.grant, connectionId: account.connectionId ?? null } : null,
      mcpServers: config.serverTools.mcpServers.map(({ name, url }) => ({
        name,
        url,
        token: { set: secrets.mcpTokens.includes(name) },
      })),
      generateFile: { ...config.serverTools.generateFile } as AssistantView['serverTools']['generateFile'],
      consensus: { ...config.serverTools.consensus },
    },
    sitemap: config.sitemap.map((route) => ({ ...route })),
    outsideLinks: config.outsideLinks ?? false,
    files: filesPermissionOf(config),
    limits: { ...config.limits },
    secrets: { providerKey: { set: secrets.providerKey }, identitySecret: { set: secrets.identitySecret } },
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

/**
 * An owner API write as the assistants module takes it: the settings (in the CLI's input form) and
 * the secrets patch. Secrets never go into the settings.
 */
export function fromOwnerWrite(write: AssistantWrite): {
  input: Record<string, unknown>;
  secrets: SecretsPatch;
} {
  const { providerKey, identitySecret, serverTools, ...settings } = write;
  const secrets: SecretsPatch = {};
  if (providerKey !== undefined) secrets.providerKey = providerKey;
  if (identitySecret !== undefined) secrets.identitySecret = identitySecret;
  const input: Record<string, unknown> = { ...settings };
  if (serverTools) {
    const { mcpServers, ...rest } = serverTools;
    const tools: Record<string, unknown> = { ...rest };
    if (mcpServers) {
      tools.mcpServers = mcpServers.map(({ name, url }) => ({ name, url }));
      const tokens: Record<string, string | null> = {};
      for (const server of mcpServers) if (server.token !== undefined) tokens[server.name] = server.token;
      if (Object.keys(tokens).length > 0) secrets.mcpTokens = tokens;
    }
    input.serverTools = tools;
  }
  return { input, secrets };
}
