import { createFakeHub } from '@diosc/kit/testing';
import { PAGE_ORIGIN, type ScriptedStep, startHubServer } from '@diosc/server/testing';

/** The raw browser tool both assistants declare; the page supplies its handler. */
/** The account write both suites have the model ask to approve: a high-severity `item_write`. */
export const WRITE = {
  collection: 'notes',
  item: 'plan',
  requestId: 'req-plan-1',
  ifNoneMatch: '*',
  content: { title: 'Q3 plan', body: 'Ship the hub.', contentType: 'text/plain' },
};

export const PICK_ROW = {
  name: 'pick_row',
  description: 'Picks a row of the table by id.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string' } },
  },
};

/** What the model does in the next turn, said once for both hubs. */
export type TurnPlan =
  | { say: string }
  /** A raw browser tool the page declared; the reply follows its result. */
  | { tool: string; args: Record<string, unknown>; reply: string }
  /** A server tool behind Consensus (the real hub's account catalog `item_write`). */
  | { approve: Record<string, unknown>; reply: string };

/** A hub the contract suite speaks to: the real one, or the kit's fake. */
export interface WireTarget {
  readonly name: string;
  readonly url: string;
  readonly origin: string;
  readonly publishableKey: string;
  readonly fetch: typeof fetch;
  plan(turn: TurnPlan): void;
  /** How many model steps the hub has run (the real hub's scripted model), to see nothing ran. */
  modelCalls?(): number;
  close(): Promise<void>;
}

/** The real server on loopback, SQLite, one assistant on a scripted model that follows the plans. */
export async function realHub(): Promise<WireTarget> {
  const steps: ScriptedStep[] = [];
  const server = await startHubServer({
    script: () => steps.shift() ?? { text: 'No plan for this step.' },
    assistant: {
      browserTools: [PICK_ROW],
      serverTools: {
        account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
        consensus: { item_write: 'high' },
      },
    },
  });
  return {
    name: 'the real hub',
    url: server.url,
    origin: PAGE_ORIGIN,
    publishableKey: server.assistant.publishableKey,
    fetch: globalThis.fetch,
    plan(turn) {
      if ('say' in turn) steps.push({ text: turn.say });
      else if ('tool' in turn)
        steps.push({ toolCalls: [{ toolName: turn.tool, input: turn.args }] }, { text: turn.reply });
      else steps.push({ toolCalls: [{ toolName: 'item_write', input: turn.approve }] }, { text: turn.reply });
    },
    modelCalls: () => server.model.calls.length,
    close: () => server.close(),
  };
}

/** The kit's fake hub (`@diosc/kit/testing`), in memory, following the same plans. */
export async function fakeHub(): Promise<WireTarget> {
  const plans: TurnPlan[] = [];
  const hub = createFakeHub({
    assistant: { browserTools: [PICK_ROW] },
    script: async (turn) => {
      const plan = plans.shift() ?? { say: 'No plan for this turn.' };
      if ('tool' in plan) await turn.callTool(plan.tool, plan.args);
      if ('approve' in plan)
        await turn.consensus({
          tool: 'item_write',
          severity: 'high',
          summary: 'Write an item',
          args: plan.approve,
        });
      turn.say('say' in plan ? plan.say : plan.reply);
    },
  });
  return {
    name: 'the fake hub',
    url: hub.url,
    origin: 'https://shop.test',
    publishableKey: hub.publishableKey,
    fetch: hub.fetch,
    plan: (turn) => plans.push(turn),
    close: async () => {
      hub.dropStreams();
      await hub.idle();
    },
  };
}
