import { randomUUID } from 'node:crypto';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { DioscError } from '@diosc/protocol';
import { compileToolSchema } from '@diosc/protocol/validators';
import type { Kysely } from 'kysely';
import { randomSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { Database, HubAssistantsTable } from '../../store/schema.js';
import { checkModelChoice } from '../model/check-model-choice.js';
import { validateRoutes } from '../sitemap/sitemap.js';
import type { AssistantConfig, AssistantSecrets } from './assistant-config.js';
import { parseAssistantInput } from './assistant-schema.js';

export interface AssistantRecord {
  id: string;
  accountId: string;
  publishableKey: string;
  config: AssistantConfig;
  createdAt: number;
  updatedAt: number;
}

/** What an operator sees of the secrets: which are set, never their values. */
export interface SecretsPresence {
  providerKey: boolean;
  identitySecret: boolean;
  mcpTokens: string[];
}

/**
 * The sealed secrets of each record as it was read, kept beside it rather than on it: a record is
 * serialised and logged in places, the sealed text never is. `secretsOf(record)` opens them
 * without reading the row again (a turn reads its assistant once per run).
 */
const sealedOf = new WeakMap<AssistantRecord, string | null>();

/** The record of a row read here or joined into another read (a turn's run reads its assistant so). */
export function assistantRecordOf(row: HubAssistantsTable): AssistantRecord {
  const record: AssistantRecord = {
    id: row.id,
    accountId: row.account_id,
    publishableKey: row.publishable_key,
    config: JSON.parse(row.config_json) as AssistantConfig,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  sealedOf.set(record, row.secrets_enc);
  return record;
}

/** What every saved configuration must satisfy beyond its schema (the tools preview checks drafts with it too). */
export function checkAssistantConfig(config: AssistantConfig): void {
  validateRoutes(config.sitemap);
  for (const tool of config.browserTools) compileToolSchema(tool.inputSchema);
  const names = config.browserTools.map((tool) => tool.name);
  if (new Set(names).size !== names.length)
    throw new DioscError('invalid_input', 'Two browser tools have the same name.');
  for (const origin of config.allowedOrigins) {
    // A browser sends the origin in its serialized form; anything else could never match.
    let serialized: string | undefined;
    try {
      serialized = new URL(origin).origin;
    } catch {
      serialized = undefined;
    }
    if (serialized !== origin)
      throw new DioscError(
        'invalid_input',
        serialized
          ? `The origin ${JSON.stringify(origin.slice(0, 100))} is not exact; write it as ${serialized}.`
          : `The origin ${JSON.stringify(origin.slice(0, 100))} is not a valid origin.`,
      );
  }
  const servers = config.serverTools.mcpServers.map((server) => server.name);
  if (new Set(servers).size !== servers.length)
    throw new DioscError('invalid_input', 'Two MCP servers have the same name.');
}

/** A change to the secrets: a string sets or replaces, `null` clears, absent keeps. */
export interface SecretsPatch {
  providerKey?: string | null;
  identitySecret?: string | null;
  mcpTokens?: Record<string, string | null>;
}

function mergePatches(
  a: AssistantSecrets | undefined,
  b: SecretsPatch | undefined,
): SecretsPatch | undefined {
  if (!a) return b;
  if (!b) return a;
  return { ...a, ...b, mcpTokens: { ...a.mcpTokens, ...b.mcpTokens } };
}

/** The secrets after a patch, with MCP tokens only for the servers still listed. */
export function applySecretsPatch(
  current: AssistantSecrets,
  patch: SecretsPatch,
  mcpServers: readonly string[],
): AssistantSecrets {
  const next: AssistantSecrets = {};
  for (const key of ['providerKey', 'identitySecret'] as const) {
    const value = patch[key] === undefined ? current[key] : patch[key];
    if (typeof value === 'string') next[key] = value;
  }
  const tokens: Record<string, string> = {};
  for (const name of mcpServers) {
    const value = patch.mcpTokens?.[name] === undefined ? current.mcpTokens?.[name] : patch.mcpTokens[name];
    if (typeof value === 'string') tokens[name] = value;
  }
  if (Object.keys(tokens).length > 0) next.mcpTokens = tokens;
  return next;
}

const ORIGIN_CACHE_MS = 5_000;

/** The hub's assistants; this module owns `hub_assistants`. */
export function createAssistants(
  db: Kysely<Database>,
  clock: Clock,
  box: SecretBox,
  /** The scripted models this server has, so a scripted id it lacks is refused when saved. */
  scriptedModels?: Record<string, LanguageModelV3>,
) {
  let origins: { set: Set<string>; at: number } | undefined;
  async function byId(id: string): Promise<HubAssistantsTable | undefined> {
    return db.selectFrom('hub_assistants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async function requireOwned(accountId: string, idOrName: string): Promise<HubAssistantsTable> {
    const row = await db
      .selectFrom('hub_assistants')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .executeTakeFirst();
    if (!row) throw new DioscError('not_found', `There is no assistant "${idOrName.slice(0, 80)}".`);
    return row;
  }

  /**
   * The sealed secrets after a change: a string sets or replaces a value, `null` clears it, an
   * absent key keeps it. Tokens of MCP servers the assistant no longer lists are dropped.
   */
  function seal(
    patch: SecretsPatch | undefined,
    previous: string | null,
    config: AssistantConfig,
  ): string | null {
    const current = previous ? (JSON.parse(box.open(previous)) as AssistantSecrets) : {};
    const next = applySecretsPatch(
      current,
      patch ?? {},
      config.serverTools.mcpServers.map((server) => server.name),
    );
    if (Object.keys(next).length === 0) return null;
    if (!patch && previous && JSON.stringify(next) === JSON.stringify(current)) return previous;
    return box.seal(JSON.stringify(next));
  }

  async function refuseNameClash(accountId: string, name: string): Promise<void> {
    const clash = await db
      .selectFrom('hub_assistants')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (clash)
      throw new DioscError('invalid_input', `An assistant named "${name.slice(0, 80)}" already exists.`);
  }

  return {
    async create(accountId: string, input: unknown, patch?: SecretsPatch): Promise<AssistantRecord> {
      const parsed = parseAssistantInput(input);
      const { config } = parsed;
      const secrets = mergePatches(parsed.secrets, patch);
      checkAssistantConfig(config);
      checkModelChoice(config.model, scriptedModels);
      const now = clock.now();
      const row: HubAssistantsTable = {
        id: `ast_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
        account_id: accountId,
        name: config.name,
        publishable_key: `pk_${randomSecret(18)}`,
        config_json: JSON.stringify(config),
        secrets_enc: seal(secrets, null, config),
        created_at: now,
        updated_at: now,
      };
      await refuseNameClash(accountId, config.name);
      await db.insertInto('hub_assistants').values(row).execute();
      origins = undefined;
      return assistantRecordOf(row);
    },

    /** Changes the given fields; the rest keeps its value. Secrets merge by key. */
    async update(
      accountId: string,
      idOrName: string,
      input: unknown,
      secretsPatch?: SecretsPatch,
    ): Promise<AssistantRecord> {
      const row = await requireOwned(accountId, idOrName);
      const current = JSON.parse(row.config_json) as AssistantConfig;
      const patch = { name: current.name, ...(input as object) };
      const parsed = parseAssistantInput(patch, current);
      const { config } = parsed;
      const secrets = mergePatches(parsed.secrets, secretsPatch);
      if (config.name !== current.name) await refuseNameClash(accountId, config.name);
      checkAssistantConfig(config);
      // Only a model being written is checked: a stored one a later release would refuse must not
      // stop the owner from changing anything else.
      if ((input as { model?: unknown }).model !== undefined) checkModelChoice(config.model, scriptedModels);
      const updated = {
        name: config.name,
        config_json: JSON.stringify(config),
        secrets_enc: seal(secrets, row.secrets_enc, config),
        updated_at: clock.now(),
      };
      await db.updateTable('hub_assistants').set(updated).where('id', '=', row.id).execute();
      origins = undefined;
      return assistantRecordOf({ ...row, ...updated });
    },

    async remove(accountId: string, idOrName: string): Promise<void> {
      const row = await requireOwned(accountId, idOrName);
      await db.deleteFrom('hub_assistants').where('id', '=', row.id).execute();
      origins = undefined;
    },

    async list(accountId: string): Promise<AssistantRecord[]> {
      const rows = await db
        .selectFrom('hub_assistants')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
      return rows.map(assistantRecordOf);
    },

    async show(accountId: string, idOrName: string): Promise<AssistantRecord & { secrets: SecretsPresence }> {
      const row = await requireOwned(accountId, idOrName);
      const secrets = row.secrets_enc ? (JSON.parse(box.open(row.secrets_enc)) as AssistantSecrets) : {};
      return {
        ...assistantRecordOf(row),
        secrets: {
          providerKey: Boolean(secrets.providerKey),
          identitySecret: Boolean(secrets.identitySecret),
          mcpTokens: Object.keys(secrets.mcpTokens ?? {}),
        },
      };
    },

    async find(id: string): Promise<AssistantRecord | undefined> {
      const row = await byId(id);
      return row ? assistantRecordOf(row) : undefined;
    },

    async findByPublishableKey(key: string): Promise<AssistantRecord | undefined> {
      const row = await db
        .selectFrom('hub_assistants')
        .selectAll()
        .where('publishable_key', '=', key)
        .executeTakeFirst();
      return row ? assistantRecordOf(row) : undefined;
    },

    /**
     * The decrypted secrets, for the hub's own use only (a model call, a token check): of a record
     * as it was read, or read afresh by id.
     */
    async secretsOf(assistant: AssistantRecord | string): Promise<AssistantSecrets> {
      const sealed =
        typeof assistant !== 'string' && sealedOf.has(assistant)
          ? sealedOf.get(assistant)
          : (await byId(typeof assistant === 'string' ? assistant : assistant.id))?.secrets_enc;
      return sealed ? (JSON.parse(box.open(sealed)) as AssistantSecrets) : {};
    },

    /**
     * True when some assistant allows pages of this exact origin. Only CORS asks this (the session
     * route checks the assistant's own list), so a set read at most every few seconds will do; a
     * change made in this process clears it at once.
     */
    async originAllowed(origin: string): Promise<boolean> {
      if (!origins || clock.now() - origins.at > ORIGIN_CACHE_MS) {
        const rows = await db.selectFrom('hub_assistants').select('config_json').execute();
        const set = new Set(
          rows.flatMap((row) => (JSON.parse(row.config_json) as AssistantConfig).allowedOrigins),
        );
        origins = { set, at: clock.now() };
      }
      return origins.set.has(origin);
    },

    /** Links the app connection that carries the assistant's account grant. */
    async setAccountConnection(id: string, connectionId: string): Promise<void> {
      const row = await byId(id);
      if (!row) return;
      const config = JSON.parse(row.config_json) as AssistantConfig;
      if (!config.serverTools.account) return;
      config.serverTools.account.connectionId = connectionId;
      await db
        .updateTable('hub_assistants')
        .set({ config_json: JSON.stringify(config) })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type Assistants = ReturnType<typeof createAssistants>;
