export type { FakeHub, FakeHubOptions, RecordedRequest } from './fake-hub.js';
export { createFakeHub } from './fake-hub.js';
export type { FakeConversation, StoredFile } from './fake-state.js';
export type { FakeTurn, TurnScript } from './fake-turn.js';
