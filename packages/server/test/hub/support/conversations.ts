import { createAssistants } from '../../../src/hub/assistants/assistants.js';
import { createConversations } from '../../../src/hub/store/conversations.js';
import { createSecretBox } from '../../../src/secrets/secret-box.js';
import type { Store } from '../../../src/store/dialect.js';

/** `count` conversations of one assistant in `store`, for suites that work on the store directly. */
export async function seedConversations(store: Store, accountId: string, count: number): Promise<string[]> {
  const clock = { now: () => Date.now() };
  const assistants = createAssistants(store.db, clock, createSecretBox(Buffer.alloc(32, 7)));
  const assistant = await assistants.create(accountId, {
    name: 'Store suite',
    allowedOrigins: ['http://a.localhost'],
  });
  const conversations = createConversations(store.db, clock);
  const ids: string[] = [];
  for (let index = 0; index < count; index++)
    ids.push((await conversations.create(assistant.id, `anon_${index}`)).id);
  return ids;
}
