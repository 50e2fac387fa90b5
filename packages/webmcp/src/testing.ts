/**
 * `@diosc/webmcp/testing`: deterministic stand-ins for the platform's WebMCP API, injected into an
 * adapter (`createWebMcpAdapter({ modelContext: { api: 'current', context: fake } })`) — never
 * installed on a global. The kit's tests use the same doubles.
 */
export { FakeLegacyModelContext, FakeModelContext } from './fake-model-context.js';
