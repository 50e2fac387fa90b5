import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createScriptedModel, type ScriptedModel } from '../../src/hub/model/scripted/scripted-model.js';
import type { TurnRunner } from '../../src/hub/turns/turn-runner.js';
import { openConfiguredStore } from '../../src/store/configured-store.js';
import type { Store } from '../../src/store/dialect.js';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from './support/hub-server.js';

let server: HubTestServer | undefined;
let second: { app: FastifyInstance; store: Store; url: string; model: ScriptedModel } | undefined;
afterEach(async () => {
  if (second) {
    second.app.server.closeAllConnections();
    await second.app.close();
    await second.store.close();
  }
  await server?.close();
  server = undefined;
  second = undefined;
});

/** A second server instance over the same store (its own connections, runner and event bus). */
async function secondInstance(of: HubTestServer, script: Parameters<typeof createScriptedModel>[0]) {
  const store = await openConfiguredStore(of.config);
  const model = createScriptedModel(script);
  const app = await buildApp({
    config: of.config,
    store,
    logger: false,
    hub: { scriptedModels: { test: model }, sweepIntervalMs: 50 },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  second = { app, store, url, model };
  return second;
}

describeOnDialects('two instances over one store', () => {
  it('continues on instance B a turn that waits on instance A; A’s stream sees B’s events', async () => {
    server = await startHubServer({ script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }] });
    const a = server.client();
    await a.open(server.assistant.publishableKey);
    const conversation = await a.conversation();
    const streamA = a.stream(conversation);
    await streamA.ready;
    await a.send(conversation, { text: 'read', registry: { tools: ['read_page'], intents: [] } });
    const { interrupt } = await streamA.until('interrupt');

    const b = await secondInstance(server, [{ text: 'Instance B finished the turn.' }]);
    const clientB = new HubClient(b.url, a.origin);
    clientB.token = a.token;
    expect((await clientB.answer(interrupt.id, { result: { content: 'page' } })).body).toEqual({
      status: 'accepted',
    });
    const { message } = await streamA.until('message', () => true, 10_000);
    expect(message.text).toBe('Instance B finished the turn.');
    // B's model ran the step; A's model was called once, for the first step only.
    expect(b.model.calls).toHaveLength(1);
    expect(server.model.calls).toHaveLength(1);
    // The ids stayed one sequence with no repeat, though two processes wrote them.
    const ids = streamA.events.map((event) => event.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    streamA.close();
  });

  it('runs a resumed step once when both instances race to resume the same turn', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'A' }],
    });
    const { client: a, conversation, stream } = await server.visit();
    const sent = await a.send(conversation, {
      text: 'read',
      registry: { tools: ['read_page'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    const b = await secondInstance(server, [{ text: 'B' }]);
    // Resolve the interrupt in the store, then wake both runners at once.
    await server.store.db
      .updateTable('hub_tool_calls')
      .set({ status: 'done', output_json: JSON.stringify({ type: 'json', value: { content: 'page' } }) })
      .where('id', '=', interrupt.id)
      .execute();
    await Promise.all([
      (server.app.diosc.hub!.runner as TurnRunner).resumeIfUnblocked(sent.body.turnId),
      (b.app.diosc.hub!.runner as TurnRunner).resumeIfUnblocked(sent.body.turnId),
    ]);
    await stream.until('turn.done', () => true, 10_000);
    expect(server.model.calls.length - 1 + b.model.calls.length).toBe(1);
    expect(stream.ofType('message')).toHaveLength(1);
    const messages = await server.store.db
      .selectFrom('hub_messages')
      .select('role')
      .where('conversation_id', '=', conversation)
      .orderBy('seq')
      .execute();
    expect(messages.map((row) => row.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    stream.close();
  });
});
