// `npm run bench` (ag-ui): the bytes a client sends upstream for each client-tool result, turn
// after turn of one 60-turn conversation — the kit's wire (the result alone, to the interrupt's
// answer route) against AG-UI's (`@ag-ui/client`'s HttpAgent: a run whose `resume` carries the
// result, and which re-sends the whole message history, as every AG-UI client does). The same hub,
// the same scripted model and the same result on both. Byte counts do not depend on the machine.
// Results go to test-results/bench/ag-ui.{json,md} (`npm run docs:refresh` copies them to
// bench/results/).
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import { HubClient, PAGE_ORIGIN, startHubServer } from '@diosc/server/testing';

const root = resolve(import.meta.dirname, '../..');
const TURNS = 60;
const REPORTED = [1, 10, 60];

/** The client tool both wires declare: an intent on the kit's, a `RunAgentInput.tools` entry on AG-UI's. */
const TOOL = {
  name: 'read_shelf',
  description: 'Reads the products on the shelf the visitor is looking at.',
  parameters: { type: 'object', additionalProperties: false, properties: {} },
};
/** A ~150-byte result, the same every turn (as in the hub bench). */
const RESULT = {
  url: 'https://shop.example/products',
  title: 'Products',
  content: 'Teas: Sencha 4.50 EUR, Assam 3.90 EUR, Darjeeling 6.20 EUR, Rooibos 3.10 EUR.',
};
const REPLY = 'The shelf holds four teas; Rooibos is the cheapest at 3.10 EUR.';
const userText = (turn: number) => `Turn ${turn}: what is on the shelf?`;

const server = await startHubServer({
  // 120 messages a conversation, two runs a turn on AG-UI: over the default per-minute limit.
  assistant: { limits: { messagesPerMinute: 1_000 } },
  script: (call) => {
    const last = call.prompt.at(-1);
    return last?.role === 'tool'
      ? { text: REPLY }
      : { toolCalls: [{ toolName: 'browser_read_shelf', input: {} }] };
  },
});

/** The kit's wire: the message, then the interrupt's answer — the result and nothing else. */
async function kitConversation(): Promise<number[]> {
  const client = new HubClient(server.url, PAGE_ORIGIN);
  await client.open(server.assistant.publishableKey);
  const conversation = await client.conversation();
  const stream = client.stream(conversation);
  await stream.ready;
  const bytes: number[] = [];
  try {
    const registry = {
      tools: [],
      intents: [{ name: TOOL.name, description: TOOL.description, schema: TOOL.parameters }],
    };
    for (let turn = 1; turn <= TURNS; turn++) {
      const sent = await client.send(conversation, { text: userText(turn), registry });
      if (sent.status !== 202)
        throw new Error(`kit turn ${turn}: ${sent.status} ${JSON.stringify(sent.body)}`);
      const { interrupt } = await stream.until('interrupt', (event) => event.turnId === sent.body.turnId);
      await client.answer(interrupt.id, { result: RESULT });
      bytes.push(client.sent.at(-1)!.bytes);
      await stream.until('turn.done', (event) => event.turnId === sent.body.turnId);
    }
  } finally {
    stream.close();
  }
  return bytes;
}

/** AG-UI's wire through the real HttpAgent: a run per message, a run per result. */
async function agUiConversation(): Promise<number[]> {
  const client = new HubClient(server.url, PAGE_ORIGIN);
  await client.open(server.assistant.publishableKey);
  const bodies: number[] = [];
  const agent = new HttpAgent({
    url: `${server.url}${HUB_API_PREFIX}${hubPath('agUiRun')}`,
    headers: { authorization: `Bearer ${client.token}`, origin: PAGE_ORIGIN },
    threadId: await client.conversation(),
    fetch: ((url: string, init: RequestInit) => {
      bodies.push(Buffer.byteLength(String(init.body ?? '')));
      return fetch(url, init);
    }) as never,
  });
  const bytes: number[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    agent.addMessage({ id: randomUUID(), role: 'user', content: userText(turn) });
    await agent.runAgent({ tools: [TOOL] });
    const [interrupt] = agent.pendingInterrupts;
    if (!interrupt) throw new Error(`AG-UI turn ${turn}: no interrupt`);
    await agent.runAgent({
      tools: [TOOL],
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { result: RESULT } }],
    });
    bytes.push(bodies.at(-1)!);
    const reply = agent.messages.at(-1);
    if (reply?.role !== 'assistant' || reply.content !== REPLY)
      throw new Error(`AG-UI turn ${turn}: no reply`);
  }
  return bytes;
}

try {
  const kit = await kitConversation();
  const agUi = await agUiConversation();
  const rows = REPORTED.map((turn) => ({
    turn,
    kitBytes: kit[turn - 1]!,
    agUiBytes: agUi[turn - 1]!,
    ratio: Number((agUi[turn - 1]! / kit[turn - 1]!).toFixed(1)),
  }));
  const report = {
    what: 'request-body bytes a client sends per client-tool result, same conversation, same hub',
    turns: TURNS,
    resultBytes: Buffer.byteLength(JSON.stringify(RESULT)),
    rows,
  };
  const markdown = [
    '# AG-UI against the kit’s wire: bytes sent per tool result',
    '',
    `One conversation of ${TURNS} turns, each with one client-tool round trip carrying the same`,
    `${report.resultBytes}-byte result, on the same hub and scripted model. The kit sends the result alone`,
    '(`POST /interrupts/:id/answer`); an AG-UI client (`@ag-ui/client` 1.0 `HttpAgent`) resumes the run',
    'with the result and re-sends the whole history, which the hub reconciles and does not trust.',
    '',
    '| turn | kit (bytes) | AG-UI (bytes) | AG-UI ÷ kit |',
    '| ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.turn} | ${row.kitBytes} | ${row.agUiBytes} | ${row.ratio}× |`),
    '',
    'Written by `bench/ag-ui/run.ts` (`npm run bench`).',
    '',
  ].join('\n');
  const dir = join(root, 'test-results/bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ag-ui.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'ag-ui.md'), markdown);
  console.log(
    `\n${markdown}\nWritten to test-results/bench/ag-ui.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
  );
} finally {
  await server.close();
}
