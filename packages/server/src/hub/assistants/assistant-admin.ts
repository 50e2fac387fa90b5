import { validateGrant } from '../../connections/grant.js';
import type { DioscContext } from '../../context.js';
import type { AssistantRecord } from './assistants.js';

/**
 * Creating or changing an assistant, with the app connection that carries its account grant: a
 * durable access record listed in Connected apps (provenance `assistant`). Its token is discarded
 * on creation — the hub calls the account core directly, so no token exists to leak.
 */
export async function createAssistant(
  diosc: DioscContext,
  accountId: string,
  input: unknown,
): Promise<AssistantRecord> {
  const hub = requireHub(diosc);
  const record = await hub.assistants.create(accountId, input);
  return linkAccountGrant(diosc, record);
}

export async function updateAssistant(
  diosc: DioscContext,
  accountId: string,
  idOrName: string,
  input: unknown,
): Promise<AssistantRecord> {
  const record = await requireHub(diosc).assistants.update(accountId, idOrName, input);
  return linkAccountGrant(diosc, record);
}

async function linkAccountGrant(diosc: DioscContext, record: AssistantRecord): Promise<AssistantRecord> {
  const account = record.config.serverTools.account;
  if (!account) return record;
  const grant = await validateGrant(diosc.store.db, record.accountId, account.grant);
  if (account.connectionId) {
    await diosc.connections.changeGrant(record.accountId, account.connectionId, grant);
    return record;
  }
  const { connection } = await diosc.connections.createMcp(record.accountId, {
    displayName: `Assistant: ${record.config.name}`,
    grant,
    provenance: 'assistant',
  });
  await requireHub(diosc).assistants.setAccountConnection(record.id, connection.id);
  return {
    ...record,
    config: {
      ...record.config,
      serverTools: { ...record.config.serverTools, account: { grant, connectionId: connection.id } },
    },
  };
}

function requireHub(diosc: DioscContext) {
  if (!diosc.hub) throw new Error('The hub plugin is not registered.');
  return diosc.hub.services;
}
