import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubTestServer, startHubServer } from '../support/hub-server.js';
import { agUiVisitor } from './ag-ui-visitor.js';

let server: HubTestServer;
beforeAll(async () => {
  server = await startHubServer({ script: [{ text: 'Hello there, visitor.' }] });
});
afterAll(async () => server?.close());

it('smoke', async () => {
  const visitor = await agUiVisitor(server);
  const run = await visitor.say('hi');
  console.log(run.error, run.outcome, JSON.stringify(run.events.map((e) => e.type)), JSON.stringify(visitor.agent.messages));
  expect(run.outcome).toBe('success');
});
