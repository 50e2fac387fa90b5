import { randomUUID } from 'node:crypto';
import { type AgentSubscriber, HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Interrupt, Tool } from '@ag-ui/core';
import { HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import { HubClient, type HubTestServer, PAGE_ORIGIN } from '../support/hub-server.js';

/** A front end's client tool, declared in every run. */
export const PICK_COLOR: Tool = {
  name: 'pick_color',
  description: 'Asks the user to pick a color.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['palette'],
    properties: { palette: { type: 'string' } },
  },
};

/** What one run showed: its events, and how it ended. */
export interface RunRecord {
  events: BaseEvent[];
  outcome?: 'success' | 'interrupt' | 'cancelled';
  interrupts: Interrupt[];
  error?: Error;
}

/**
 * A visitor driving the hub with `@ag-ui/client`'s real `HttpAgent`: a session from the publishable
 * key, a conversation from `POST /conversations` (the thread), and runs that record every event.
 */
export async function agUiVisitor(server: HubTestServer, options: { fetch?: typeof fetch } = {}) {
  const hub = new HubClient(server.url, PAGE_ORIGIN);
  await hub.open(server.assistant.publishableKey);
  const threadId = await hub.conversation();
  const agent = new HttpAgent({
    url: `${server.url}${HUB_API_PREFIX}${hubPath('agUiRun')}`,
    headers: { authorization: `Bearer ${hub.token}`, origin: PAGE_ORIGIN },
    threadId,
    ...(options.fetch ? { fetch: options.fetch as never } : {}),
  });
  const run = async (parameters: Parameters<HttpAgent['runAgent']>[0] = {}): Promise<RunRecord> => {
    const record: RunRecord = { events: [], interrupts: [] };
    const subscriber: AgentSubscriber = {
      onEvent: ({ event }) => {
        record.events.push(event);
      },
      onRunFinishedEvent: (params) => {
        record.outcome = params.outcome;
        if (params.outcome === 'interrupt') record.interrupts = params.interrupts;
      },
    };
    try {
      await agent.runAgent({ tools: [PICK_COLOR], ...parameters }, subscriber);
    } catch (error) {
      record.error = error as Error;
    }
    return record;
  };
  return {
    hub,
    agent,
    threadId,
    run,
    /** Adds a user message and runs. */
    say(text: string, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
      agent.addMessage({ id: randomUUID(), role: 'user', content: text });
      return run(parameters);
    },
  };
}
