/**
 * `@diosc/server/testing`: the doors every test suite (the server's own, the hub's, the kit's, e2e,
 * bench) uses to run the real server on a real store. Node only.
 */
export type { ManualClock } from '../clock.js';
export { manualClock } from '../clock.js';
export { createAssistant, updateAssistant } from '../hub/assistant-admin/assistant-admin.js';
export { parseAssistantInput } from '../hub/assistants/assistant-schema.js';
export type { AssistantRecord } from '../hub/assistants/assistants.js';
export type { HubOptions } from '../hub/hub-context.js';
export type {
  Script,
  ScriptedCall,
  ScriptedModel,
  ScriptedStep,
} from '../hub/model/scripted/scripted-model.js';
export { checkNavigationPath } from '../hub/sitemap/sitemap.js';
export { BUILT_IN_BROWSER_TOOLS } from '../hub/turns/built-in-tools.js';
export { renderSnapshot } from '../hub/turns/prompt.js';
export type { Database } from '../store/schema.js';
export { createTestAccount } from './accounts.js';
export type { CallGate, CallMatch, HeldCall } from './call-gate.js';
export { createCallGate } from './call-gate.js';
export type { TestDialect } from './dialects.js';
export { HOSTILE_ITEMS, seedHostileCollection } from './hostile-items.js';
export type { Reply } from './hub-client.js';
export { EventStream, HubClient } from './hub-client.js';
export type { HubTestServer } from './hub-server.js';
export { PAGE_ORIGIN, startHubServer } from './hub-server.js';
export { createPostgresDatabase } from './postgres-database.js';
export type { SeedOptions } from './seed.js';
export { seedCollection, seedItems } from './seed.js';
export type { TestServer, TestServerOptions } from './test-server.js';
export { freePort, startTestServer } from './test-server.js';
export type { TestStore } from './test-store.js';
export { DIALECTS, OWNER_PASSWORD, openTestStore } from './test-store.js';
