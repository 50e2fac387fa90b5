import { createHash } from 'node:crypto';
import type { ConsensusRequest } from '@diosc/protocol';
import type { Script, ScriptedCall } from '../../../src/hub/model/scripted/scripted-model.js';
import { snapshot } from '../../http/snapshot.js';
import { multipartBody, PNG_1PX } from '../files/file-client.js';
import { HubClient, type HubTestServer, PAGE_ORIGIN, startHubServer } from '../support/hub-server.js';
import { planWrite } from '../support/plan-write.js';
import { FuzzClient } from './fuzz-client.js';

/** A visitor session and one idle conversation of its own. */
export interface Visitor {
  token: string;
  conversation: string;
}

/** What the fuzzed requests aim at: real ids in every state a route distinguishes. */
export interface Targets {
  publishableKey: string;
  main: Visitor & {
    /** A conversation whose turn waits on a `read_page` interrupt. */
    waiting: { conversation: string; turnId: string; interruptId: string };
    /** A conversation whose turn waits on an approval request. */
    consensus: { conversation: string; id: string; argsDigest: string };
    doneTurnId: string;
    fileId: string;
  };
  /** Another visitor: its ids must read as absent to `main`. */
  other: Visitor & { fileId: string; interruptId: string; turnId: string };
  /** Visitors with idle conversations, taken in turn where a route limits requests per visitor. */
  crowd: Visitor[];
}

export const CROWD = 44;
/** The per-address session limit is 30 a minute; each address opens fewer. */
const SESSIONS_PER_ADDRESS = 20;

const WRITE_ARGS = planWrite('req-fuzz-1', 'fuzz-plan');

/** The newest user message's text and whether this turn has a tool result yet. */
function readTurn(call: ScriptedCall): { text: string; answered: boolean } {
  let answered = false;
  for (let index = call.prompt.length - 1; index >= 0; index--) {
    const message = call.prompt[index]!;
    if (message.role === 'tool') answered = true;
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { text, answered };
    }
  }
  return { text: '', answered };
}

/** "read" waits on the page, "write" on an approval; anything else is answered at once. */
const script: Script = (call) => {
  const { text, answered } = readTurn(call);
  if (answered) return { text: 'Done.' };
  if (text.includes('read')) return { toolCalls: [{ toolName: 'read_page', input: {} }] };
  if (text.includes('write')) return { toolCalls: [{ toolName: 'item_write', input: WRITE_ARGS }] };
  return { text: 'Hello.' };
};

export async function startFuzzHub(dialect: Parameters<typeof startHubServer>[0]) {
  const server = await startHubServer({
    ...dialect,
    script,
    assistant: {
      sitemap: [
        { path: '/', title: 'Home' },
        { path: '/products/:id', title: 'Product' },
      ],
      files: { enabled: true, maxFileBytes: 300_000, allowedTypes: ['image/png'] },
      limits: { messagesPerMinute: 1_000, interruptTimeoutMs: 3_600_000, consensusTimeoutMs: 86_400_000 },
      serverTools: {
        account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }] },
        consensus: { item_write: 'high' },
      },
    },
  });
  const http = new FuzzClient(server.url);
  const targets = await setUp(server, http);
  return { server, http, targets };
}

async function openVisitor(server: HubTestServer, http: FuzzClient, index: number): Promise<HubClient> {
  const answer = await http.send({
    method: 'POST',
    path: '/api/hub/sessions',
    headers: { origin: PAGE_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ publishableKey: server.assistant.publishableKey }),
    from: `127.0.1.${1 + Math.floor(index / SESSIONS_PER_ADDRESS)}`,
  });
  if (answer.status !== 201) throw new Error(`session: ${answer.status} ${answer.text}`);
  const client = new HubClient(server.url, PAGE_ORIGIN);
  client.token = (JSON.parse(answer.text) as { token: string }).token;
  return client;
}

async function upload(client: HubClient, conversation: string): Promise<string> {
  const { body, contentType } = multipartBody({ bytes: PNG_1PX, filename: 'pixel.png', type: 'image/png' });
  const response = await fetch(`${client.base}/api/hub/conversations/${conversation}/files`, {
    method: 'POST',
    headers: { origin: PAGE_ORIGIN, 'content-type': contentType, authorization: `Bearer ${client.token}` },
    body: new Uint8Array(body),
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { fileId: string }).fileId;
}

/** Sends `text` and waits until the turn stops: waiting on the page, on a decision, or done. */
async function turn(client: HubClient, conversation: string, text: string) {
  const stream = client.stream(conversation);
  await stream.ready;
  const sent = await client.send(conversation, { text, registry: { tools: ['read_page'], intents: [] } });
  if (sent.status !== 202) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
  const turnId = sent.body.turnId;
  try {
    if (text.includes('read')) return { turnId, interruptId: (await stream.until('interrupt')).interrupt.id };
    if (text.includes('write'))
      return { turnId, request: (await stream.until('consensus.requested')).request as ConsensusRequest };
    await stream.until('turn.done');
    return { turnId };
  } finally {
    stream.close();
  }
}

async function setUp(server: HubTestServer, http: FuzzClient): Promise<Targets> {
  const clients: HubClient[] = [];
  for (let index = 0; index < CROWD + 2; index++) clients.push(await openVisitor(server, http, index));
  const [mainClient, otherClient, ...crowdClients] = clients as [HubClient, HubClient, ...HubClient[]];
  const visitor = async (client: HubClient): Promise<Visitor> => ({
    token: client.token!,
    conversation: await client.conversation(),
  });

  const main = await visitor(mainClient);
  const done = await turn(mainClient, main.conversation, 'hello');
  const fileId = await upload(mainClient, main.conversation);
  const waitingConversation = await mainClient.conversation();
  const waiting = await turn(mainClient, waitingConversation, 'read the page');
  const consensusConversation = await mainClient.conversation();
  const consensus = await turn(mainClient, consensusConversation, 'write the plan');

  const other = await visitor(otherClient);
  const otherFile = await upload(otherClient, other.conversation);
  const otherWaiting = await otherClient.conversation();
  const otherTurn = await turn(otherClient, otherWaiting, 'read the page');

  return {
    publishableKey: server.assistant.publishableKey,
    main: {
      ...main,
      waiting: {
        conversation: waitingConversation,
        turnId: waiting.turnId,
        interruptId: waiting.interruptId!,
      },
      consensus: {
        conversation: consensusConversation,
        id: consensus.request!.id,
        argsDigest: consensus.request!.argsDigest,
      },
      doneTurnId: done.turnId,
      fileId,
    },
    other: { ...other, fileId: otherFile, interruptId: otherTurn.interruptId!, turnId: otherTurn.turnId },
    crowd: await Promise.all(crowdClients.map(visitor)),
  };
}

/** A digest of every row of every table: equal before and after means nothing was stored. */
export async function storeDigest(server: HubTestServer): Promise<string> {
  // A step's token counts are written a moment after it, in a batch: what is pending now belongs
  // to what came before.
  await server.app.diosc.hub?.services.modelUsage.flush();
  const hash = createHash('sha256');
  for (const [table, rows] of Object.entries(await snapshot(server.store)).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    // Row order of a plain SELECT is the store's business; the digest is of the set of rows.
    hash.update(
      `${table}\n${rows
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n')}\n`,
    );
  }
  return hash.digest('hex');
}
