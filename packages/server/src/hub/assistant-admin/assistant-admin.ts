import { DioscError } from '@diosc/protocol';
import { validateGrant } from '../../connections/grant.js';
import type { DioscContext } from '../../context.js';
import type { AssistantRecord, SecretsPatch } from '../assistants/assistants.js';
import { hubServicesOf } from '../hub-services-of.js';

/**
 * Creating, changing or deleting an assistant, with the app connection that carries its account
 * grant: a durable access record listed in Connected apps (provenance `assistant`). Its token is
 * discarded on creation — the hub calls the account core directly, so no token exists to leak.
 */
export async function createAssistant(
  diosc: DioscContext,
  accountId: string,
  input: unknown,
  secrets?: SecretsPatch,
): Promise<AssistantRecord> {
  const hub = hubServicesOf(diosc);
  if (hasAccount(input)) await checkAccountGrant(diosc, accountId, input);
  const record = await hub.assistants.create(accountId, input, secrets);
  return linkAccountGrant(diosc, record);
}

export async function updateAssistant(
  diosc: DioscContext,
  accountId: string,
  idOrName: string,
  input: unknown,
  secrets?: SecretsPatch,
): Promise<AssistantRecord> {
  const hub = hubServicesOf(diosc);
  if (hasAccount(input)) await checkAccountGrant(diosc, accountId, input);
  const before = await hub.assistants.show(accountId, idOrName);
  const record = await hub.assistants.update(accountId, idOrName, input, secrets);
  const previous = before.config.serverTools.account?.connectionId;
  if (previous && record.config.serverTools.account?.connectionId !== previous) {
    await revokeQuietly(diosc, accountId, previous);
  }
  return linkAccountGrant(diosc, record);
}

/** Deletes the assistant with everything of it (conversations, files) and revokes its connection. */
export async function deleteAssistant(
  diosc: DioscContext,
  accountId: string,
  idOrName: string,
): Promise<string> {
  const hub = hubServicesOf(diosc);
  const record = await hub.assistants.show(accountId, idOrName);
  await hub.assistants.remove(accountId, record.id);
  const connectionId = record.config.serverTools.account?.connectionId;
  if (connectionId) await revokeQuietly(diosc, accountId, connectionId);
  return record.id;
}

function hasAccount(input: unknown): input is { serverTools: { account: { grant: unknown } } } {
  const tools = (input as { serverTools?: { account?: unknown } } | null)?.serverTools;
  return typeof tools?.account === 'object' && tools.account !== null;
}

/** The grant is checked before anything is written, so a bad grant leaves the assistant as it was. */
async function checkAccountGrant(
  diosc: DioscContext,
  accountId: string,
  input: { serverTools: { account: { grant: unknown } } },
): Promise<void> {
  await validateGrant(diosc.store.db, accountId, input.serverTools.account.grant);
}

async function revokeQuietly(diosc: DioscContext, accountId: string, connectionId: string): Promise<void> {
  // Already revoked (by the owner in Connected apps) is the state we want.
  await diosc.connections.revoke(accountId, connectionId).catch(() => undefined);
}

async function linkAccountGrant(diosc: DioscContext, record: AssistantRecord): Promise<AssistantRecord> {
  const account = record.config.serverTools.account;
  if (!account) return record;
  const grant = await validateGrant(diosc.store.db, record.accountId, account.grant);
  if (account.connectionId) {
    const changed = await diosc.connections
      .changeGrant(record.accountId, account.connectionId, grant, { assistantId: record.id })
      .then(() => true)
      .catch((error: unknown) => {
        // Revoked in Connected apps: a new grant gets a new connection, the revocation stands.
        if (error instanceof DioscError && error.code === 'revoked') return false;
        throw error;
      });
    if (changed) return record;
  }
  const { connection } = await diosc.connections.createMcp(record.accountId, {
    displayName: `Assistant: ${record.config.name}`,
    grant,
    provenance: 'assistant',
    assistantId: record.id,
  });
  await hubServicesOf(diosc).assistants.setAccountConnection(record.id, connection.id);
  return {
    ...record,
    config: {
      ...record.config,
      serverTools: { ...record.config.serverTools, account: { grant, connectionId: connection.id } },
    },
  };
}
