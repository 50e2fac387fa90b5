import { Writable } from 'node:stream';
import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createAssistant } from '../../src/hub/assistant-admin/assistant-admin.js';
import { createScriptedModel } from '../../src/hub/model/scripted/scripted-model.js';
import { HubClient } from './support/hub-server.js';

let testStore: TestStore | undefined;
afterEach(async () => {
  await testStore?.close();
  testStore = undefined;
});

describe.each(DIALECTS)('hub log lines and events ($name)', (dialect) => {
  it('carry no visitor token, provider key, identity secret or MCP token — even on refusals and failures', async () => {
    testStore = await openTestStore(dialect);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'read_page', input: {} }] },
      { text: 'ok' },
    ]);
    const app = await buildApp({
      config: { ...testStore.config, logLevel: 'trace' },
      store: testStore.store,
      logger: { stream, level: 'trace' },
      hub: { scriptedModels: { test: model }, sweepIntervalMs: 50, fetchPrivate: true },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const origin = 'http://page.localhost:5000';
    const secrets = {
      providerKey: 'sk-provider-key-0123456789abcdef',
      identitySecret: 'identity-secret-0123456789abcdef0123456789',
      mcpTokens: { remote: 'mcp-token-0123456789abcdef' },
    };
    try {
      const assistant = await createAssistant(app.diosc, testStore.accountId, {
        name: 'Logged',
        model: { provider: 'scripted', id: 'test' },
        allowedOrigins: [origin],
        serverTools: { mcpServers: [{ name: 'remote', url: 'http://127.0.0.1:9/mcp' }] },
        secrets,
      });
      const failing = await createAssistant(app.diosc, testStore.accountId, {
        name: 'Failing',
        model: { provider: 'openai', id: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1:9/v1' },
        allowedOrigins: [origin],
        secrets: { providerKey: secrets.providerKey },
      });
      const client = new HubClient(url, origin);
      await client.open(assistant.publishableKey);
      const conversation = await client.conversation();
      const events = client.stream(conversation);
      await events.ready;
      await client.send(conversation, { text: 'read', registry: { tools: ['read_page'], intents: [] } });
      const { interrupt } = await events.until('interrupt');
      await client.answer(interrupt.id, { result: { content: 'page' } });
      await events.until('turn.done');
      // Refusals: a forged token, a wrong origin, a token in the query string.
      await fetch(`${url}/api/hub/conversations?token=${client.token}`, { headers: { origin } });
      await fetch(`${url}/api/hub/conversations`, {
        headers: { origin: 'http://evil.localhost', authorization: `Bearer ${client.token}` },
      });
      // A provider that cannot be reached fails the turn with a plain message.
      const other = new HubClient(url, origin);
      await other.open(failing.publishableKey);
      const second = await other.conversation();
      const failed = other.stream(second);
      await failed.ready;
      await other.send(second, { text: 'hello' });
      const failure = await failed.until('turn.failed', () => true, 20_000);
      expect(failure.error.code).toBe('model_failed');

      const everything = [lines.join(''), JSON.stringify(events.events), JSON.stringify(failed.events)].join(
        '\n',
      );
      for (const secret of [
        client.token!,
        other.token!,
        secrets.providerKey,
        secrets.identitySecret,
        secrets.mcpTokens.remote,
      ]) {
        expect(everything).not.toContain(secret);
      }
      expect(lines.length).toBeGreaterThan(5);
      events.close();
      failed.close();
    } finally {
      app.server.closeAllConnections();
      await app.close();
    }
  });
});
