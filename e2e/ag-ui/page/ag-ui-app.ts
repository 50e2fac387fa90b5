// A front end on AG-UI's own client, nothing of Diosc's: `@ag-ui/client`'s HttpAgent pointed at the
// hub's AG-UI endpoint with a visitor session. The test drives it through `window.agui`.
import { type AgentSubscriber, HttpAgent } from '@ag-ui/client';
import type { Message, ResumeEntry } from '@ag-ui/core';

const PICK_COLOR = {
  name: 'pick_color',
  description: 'Asks the user to pick a color.',
  parameters: { type: 'object', properties: { palette: { type: 'string' } }, required: ['palette'] },
};

export interface PageRun {
  types: string[];
  outcome?: string;
  interrupts: { id: string; reason: string; toolCallId?: string; metadata?: Record<string, unknown> }[];
  custom: unknown[];
  error?: { message: string; status?: number };
  messages: Message[];
}

const params = new URLSearchParams(location.search);
const hub = `${params.get('hub')}/api/hub`;
const agents = new Map<string, HttpAgent>();
const running = new Map<string, Promise<PageRun>>();

async function json(path: string, token: string | undefined, body: unknown) {
  const response = await fetch(`${hub}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function run(
  name: string,
  options: { text?: string; resume?: ResumeEntry[]; messages?: Message[] } = {},
): Promise<PageRun> {
  const agent = agents.get(name)!;
  if (options.messages) agent.setMessages(options.messages);
  if (options.text) agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: options.text });
  const record: PageRun = { types: [], interrupts: [], custom: [], messages: [] };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      record.types.push(event.type);
      if (event.type === 'CUSTOM') record.custom.push((event as { value?: unknown }).value);
    },
    onRunFinishedEvent: (finished) => {
      record.outcome = finished.outcome;
      if (finished.outcome === 'interrupt') record.interrupts = finished.interrupts as PageRun['interrupts'];
    },
  };
  try {
    await agent.runAgent(
      { tools: [PICK_COLOR], ...(options.resume ? { resume: options.resume } : {}) },
      subscriber,
    );
  } catch (error) {
    record.error = {
      message: String((error as Error).message),
      status: (error as { status?: number }).status,
    };
  }
  record.messages = structuredClone(agent.messages);
  return record;
}

const api = {
  /** A visitor of its own: a session from the publishable key, a conversation as the thread. */
  async open(name: string): Promise<string> {
    const session = await json('/sessions', undefined, { publishableKey: params.get('pk') });
    const conversation = await json('/conversations', session.token, {});
    agents.set(
      name,
      new HttpAgent({
        url: `${hub}/ag-ui`,
        headers: { authorization: `Bearer ${session.token}` },
        threadId: conversation.id,
      }),
    );
    return conversation.id;
  },
  run,
  /** Starts a run without waiting for it (`finish` waits), so the test can cut it. */
  start(name: string, text: string): void {
    running.set(name, run(name, { text }));
  },
  abort(name: string): void {
    agents.get(name)!.abortRun();
  },
  finish(name: string): Promise<PageRun> {
    return running.get(name)!;
  },
  messages(name: string): Message[] {
    return structuredClone(agents.get(name)!.messages);
  },
};

(window as unknown as { agui: typeof api }).agui = api;
document.body.dataset.ready = 'true';
