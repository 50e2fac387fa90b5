import { randomUUID } from 'node:crypto';
import { HttpAgent } from '@ag-ui/client';
import { HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import { wireClient } from './wire-client.js';
import { PICK_ROW, type WireTarget } from './wire-targets.js';

/** What came of an answer or a decision, on either wire: taken, taken before, or refused. */
export type Answered = { ack: 'accepted' | 'duplicate' } | { status: number; code: string };

/** A visitor that asks for a browser/client tool or an approval, and answers, over one wire. */
export interface VisitorWire {
  /** Sends a message whose turn calls the page's tool; resolves with the interrupt's id. */
  askTool(text: string): Promise<string>;
  answer(interruptId: string, result: unknown): Promise<Answered>;
  /** Sends a message whose turn asks for approval; resolves with the request's id and digest. */
  askApproval(text: string): Promise<{ id: string; argsDigest: string }>;
  decide(id: string, decision: Record<string, unknown>): Promise<Answered>;
}

/** The tool's name in the model's call, per wire: a raw page tool on the kit's, an intent on AG-UI's. */
export const TOOL_NAME = { kit: PICK_ROW.name, agUi: `browser_${PICK_ROW.name}` } as const;

const refusal = (status: number, body: unknown): Answered => ({
  status,
  code: (body as { error?: { code?: string } })?.error?.code ?? 'none',
});

/** The kit's wire: a message, the event stream, the answer and decision routes. */
export async function kitWire(target: WireTarget): Promise<VisitorWire> {
  const client = wireClient(target);
  const opened = await client.call('openSession', { body: { publishableKey: target.publishableKey } });
  client.token = opened.body.token;
  const conversation = (await client.call('createConversation', { body: {} })).body.id;
  const log = await client.events(conversation);
  const acknowledged = (reply: { status: number; body: unknown }): Answered =>
    reply.status === 200
      ? { ack: (reply.body as { status: 'accepted' | 'duplicate' }).status }
      : refusal(reply.status, reply.body);
  return {
    async askTool(text) {
      const from = log.events.length;
      await client.call('sendMessage', {
        id: conversation,
        body: { text, registry: { tools: [PICK_ROW.name], intents: [] } },
      });
      return (await log.next('interrupt', from)).interrupt.id;
    },
    answer: async (id, result) =>
      acknowledged(await client.call('answerInterrupt', { id, body: { result } })),
    async askApproval(text) {
      const from = log.events.length;
      await client.call('sendMessage', { id: conversation, body: { text } });
      const { request } = await log.next('consensus.requested', from);
      return { id: request.id, argsDigest: request.argsDigest };
    },
    decide: async (id, decision) =>
      acknowledged(await client.call('decideConsensus', { id, body: decision })),
  };
}

/** AG-UI's wire through `@ag-ui/client`'s HttpAgent: runs, interrupts, resumes. */
export async function agUiWire(target: WireTarget): Promise<VisitorWire> {
  const client = wireClient(target);
  const opened = await client.call('openSession', { body: { publishableKey: target.publishableKey } });
  const agent = new HttpAgent({
    url: `${target.url}${HUB_API_PREFIX}${hubPath('agUiRun')}`,
    headers: { authorization: `Bearer ${opened.body.token}`, origin: target.origin },
    threadId: (await client.call('createConversation', { body: {}, token: opened.body.token })).body.id,
  });
  const tools = [
    { name: PICK_ROW.name, description: PICK_ROW.description, parameters: PICK_ROW.inputSchema },
  ];
  const resume = async (interruptId: string, payload: unknown): Promise<Answered> => {
    let ack: 'accepted' | 'duplicate' = 'accepted';
    try {
      await agent.runAgent(
        { tools, resume: [{ interruptId, status: 'resolved', payload }] },
        {
          onCustomEvent: ({ event }) => {
            if (event.name === 'diosc.resume') ack = (event.value as { status: typeof ack }).status;
          },
        },
      );
    } catch (error) {
      const failed = error as { status?: number; payload?: unknown };
      return refusal(failed.status ?? 0, failed.payload);
    }
    return { ack };
  };
  const ask = async (text: string) => {
    agent.addMessage({ id: randomUUID(), role: 'user', content: text });
    await agent.runAgent({ tools });
    const interrupt = agent.pendingInterrupts[0];
    if (!interrupt) throw new Error(`no interrupt after "${text}"`);
    return interrupt;
  };
  return {
    askTool: async (text) => (await ask(text)).id,
    answer: (interruptId, result) => resume(interruptId, { result }),
    async askApproval(text) {
      const interrupt = await ask(text);
      return { id: interrupt.id, argsDigest: String(interrupt.metadata?.argsDigest) };
    },
    decide: resume,
  };
}
