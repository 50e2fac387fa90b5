import type { DioscContext } from '../../context.js';
import type { AssistantRecord } from '../assistants/assistants.js';
import { hubServicesOf } from '../hub-services-of.js';
import { createAssistant } from './assistant-admin.js';

export const DEMO_ASSISTANT_NAME = 'Demo assistant';

/**
 * The first run's assistant: pages on the server's own origin may embed it, and its model is `auto`
 * — a real provider when a key is configured (OPENAI_API_KEY, ANTHROPIC_API_KEY, DIOSC_OLLAMA_URL),
 * otherwise the scripted demo model, which says plainly that it is scripted.
 */
export async function ensureDemoAssistant(
  diosc: DioscContext,
  accountId: string,
): Promise<AssistantRecord | undefined> {
  const assistants = hubServicesOf(diosc).assistants;
  if ((await assistants.list(accountId)).length > 0) return undefined;
  return createAssistant(diosc, accountId, {
    name: DEMO_ASSISTANT_NAME,
    instructions: 'You are the demo assistant of a Diosc hub. Help the visitor with the page they are on.',
    model: { provider: 'auto', id: 'auto' },
    allowedOrigins: [diosc.config.publicOrigin],
  });
}
