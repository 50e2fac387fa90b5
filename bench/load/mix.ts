// The mixed load: W workers, each a visitor on its own conversation (its event stream open) with
// its own official MCP SDK client, cycling through the operation kinds until the deadline. Every
// outcome is timed; every success a client is told of goes into the ledger.
import { performance } from 'node:perf_hooks';
import { type ConsensusRequest, HUB_API_PREFIX, type HubEvent, hubPath } from '@diosc/protocol';
import { type EventStream, HubClient } from '@diosc/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { emptyLedger, type Ledger } from './ledger.js';
import { COLLECTION, type LoadTarget, PAGE_ORIGIN } from './load-app.js';

export const KINDS = [
  'chat turn',
  'browser round trip',
  'consensus decision',
  'upload',
  'mcp item_write',
  'mcp items_list',
  'owner item_write',
] as const;
export type Kind = (typeof KINDS)[number];

/** One cycle of a worker: reads and writes weighted about as a busy site would see them. */
const CYCLE: Kind[] = [
  'chat turn',
  'mcp items_list',
  'browser round trip',
  'mcp item_write',
  'owner item_write',
  'chat turn',
  'consensus decision',
  'mcp items_list',
  'browser round trip',
  'upload',
];
/** Uploads are limited to 30 a minute per visitor; a worker keeps under it. */
const UPLOAD_EVERY_MS = 2_500;
const WAIT_MS = 30_000;

export interface Outcome {
  kind: Kind;
  ms: number;
  /** `ok`, or the refusal's code (`timeout` when nothing came back in time). */
  result: string;
}

export interface MixResult {
  outcomes: Outcome[];
  ledger: Ledger;
  seconds: number;
  workers: number;
}

/** The smallest valid PNG: one transparent pixel, padded to 64 KiB with a text chunk. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0dd4b3a70000000049454e44ae426082',
  'hex',
);

/** An operation that did not get its success: `code` is the refusal's, or what happened instead. */
class Failure extends Error {
  readonly code: string;

  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

const codeOf = (body: unknown) => (body as { error?: { code?: string } } | null)?.error?.code ?? 'unexpected';

async function signIn(target: LoadTarget): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${target.url}/api/owner/session`, {
    method: 'POST',
    headers: { origin: target.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: target.ownerEmail, password: target.ownerPassword }),
  });
  if (response.status !== 200) throw new Error(`owner sign-in: ${response.status} ${await response.text()}`);
  const cookie = /diosc_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  if (!cookie) throw new Error('owner sign-in: no session cookie');
  return { cookie, csrf: csrfToken };
}

interface Worker {
  index: number;
  hub: HubClient;
  /** The same visitor on the instance that answers its interrupts and decisions (`hub` on one). */
  answerer: HubClient;
  conversation: string;
  stream: EventStream;
  mcp: Client;
  owner: { cookie: string; csrf: string };
  lastUpload: number;
  n: number;
}

/** Waits for the event of this turn of `type`. */
async function next<T extends HubEvent['type']>(
  worker: Worker,
  turnId: string,
  type: T,
): Promise<Extract<HubEvent, { type: T }>> {
  const event = await worker.stream
    .until(type, (candidate) => (candidate as { turnId?: string }).turnId === turnId, WAIT_MS)
    .catch(() => {
      throw new Failure('timeout');
    });
  return event;
}

async function startTurn(worker: Worker, text: string): Promise<string> {
  const sent = await worker.hub.send(worker.conversation, {
    text,
    registry: { tools: ['read_page'], intents: [] },
  });
  if (sent.status !== 202) throw new Failure(codeOf(sent.body));
  return sent.body.turnId;
}

/**
 * Waits for the turn's `turn.done`. A turn that failed or was cancelled instead is found in the
 * stream once the wait gives up, and reported by its code (one wait, so no timer outlives a turn).
 */
async function finishTurn(worker: Worker, turnId: string, ledger: Ledger): Promise<void> {
  const mine = (event: { turnId?: string }) => event.turnId === turnId;
  try {
    await worker.stream.until('turn.done', mine, WAIT_MS);
  } catch {
    const end = worker.stream.events.find(
      (event) => mine(event) && (event.type === 'turn.failed' || event.type === 'turn.cancelled'),
    );
    throw new Failure(end?.type === 'turn.failed' ? end.error.code : end ? 'cancelled' : 'timeout');
  }
  ledger.turns.push(turnId);
}

const operations: Record<Kind, (worker: Worker, target: LoadTarget, ledger: Ledger) => Promise<void>> = {
  async 'chat turn'(worker, _target, ledger) {
    const turnId = await startTurn(worker, `chat ${worker.n}`);
    await finishTurn(worker, turnId, ledger);
  },

  async 'browser round trip'(worker, _target, ledger) {
    const turnId = await startTurn(worker, `read ${worker.n}`);
    const { interrupt } = await next(worker, turnId, 'interrupt');
    const answer = await worker.answerer.answer(interrupt.id, {
      result: {
        url: `${PAGE_ORIGIN}/products`,
        title: 'Products',
        content: 'Sencha 4.50 EUR, Assam 3.90 EUR.',
      },
    });
    if (answer.status !== 200 || answer.body.status !== 'accepted') throw new Failure(codeOf(answer.body));
    ledger.answered.push(interrupt.id);
    await finishTurn(worker, turnId, ledger);
  },

  async 'consensus decision'(worker, target, ledger) {
    const item = `approved-${worker.index}-${worker.n}`;
    const requestId = `req-approved-${worker.index}-${worker.n}-${process.pid}`;
    const turnId = await startTurn(worker, `write ${item} ${requestId}`);
    const { request } = (await next(worker, turnId, 'consensus.requested')) as { request: ConsensusRequest };
    const decided = await worker.answerer.decide(request.id, {
      decision: 'approve',
      argsDigest: request.argsDigest,
    });
    if (decided.status !== 200) throw new Failure(codeOf(decided.body));
    const finished = await next(worker, turnId, 'tool.finished');
    if (!finished.ok) throw new Failure('tool failed');
    ledger.writes.push({ via: 'consensus', actor: target.actors.assistant, requestId, item });
    await finishTurn(worker, turnId, ledger);
  },

  async upload(worker, _target, ledger) {
    const boundary = `----load${worker.index}x${worker.n}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="pixel-${worker.n}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await fetch(
      `${worker.hub.base}${HUB_API_PREFIX}${hubPath('uploadFile', worker.conversation)}`,
      {
        method: 'POST',
        headers: {
          origin: PAGE_ORIGIN,
          authorization: `Bearer ${worker.hub.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body: new Uint8Array(body),
      },
    );
    const descriptor = (await response.json()) as { fileId: string; sizeBytes: number };
    if (response.status !== 201) throw new Failure(codeOf(descriptor));
    ledger.files.push({ fileId: descriptor.fileId, sizeBytes: descriptor.sizeBytes });
  },

  async 'mcp item_write'(worker, target, ledger) {
    const item = `mcp-${worker.index}-${worker.n}`;
    const requestId = `req-mcp-${worker.index}-${worker.n}-${process.pid}`;
    const result = (await worker.mcp.callTool({
      name: 'item_write',
      arguments: {
        collection: COLLECTION,
        item,
        requestId,
        ifNoneMatch: '*',
        content: { title: `MCP ${item}`, body: 'Written over /mcp.', contentType: 'text/plain' },
      },
    })) as { isError?: boolean; structuredContent?: unknown };
    if (result.isError) throw new Failure(codeOf(result.structuredContent));
    ledger.writes.push({ via: 'mcp', actor: target.actors.mcp, requestId, item });
  },

  async 'mcp items_list'(worker) {
    const result = (await worker.mcp.callTool({
      name: 'items_list',
      arguments: { collection: COLLECTION, limit: 20 },
    })) as { isError?: boolean; structuredContent?: unknown };
    if (result.isError) throw new Failure(codeOf(result.structuredContent));
  },

  async 'owner item_write'(worker, target, ledger) {
    const item = `owner-${worker.index}-${worker.n}`;
    const requestId = `req-owner-${worker.index}-${worker.n}-${process.pid}`;
    const response = await fetch(`${target.url}/api/owner/operations/item_write`, {
      method: 'POST',
      headers: {
        origin: target.url,
        cookie: worker.owner.cookie,
        'x-csrf-token': worker.owner.csrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        collection: COLLECTION,
        item,
        requestId,
        ifNoneMatch: '*',
        content: { title: `Owner ${item}`, body: 'Written by the owner.', contentType: 'text/plain' },
      }),
    });
    const body = await response.json();
    if (response.status !== 200) throw new Failure(codeOf(body));
    ledger.writes.push({ via: 'owner', actor: target.actors.owner, requestId, item });
  },
};

async function openWorker(
  target: LoadTarget,
  index: number,
  owner: Worker['owner'],
  instances: string[],
): Promise<Worker> {
  const home = instances[index % instances.length]!;
  const hub = new HubClient(home, PAGE_ORIGIN);
  await hub.open(target.publishableKey);
  const answerer = new HubClient(instances[(index + 1) % instances.length]!, PAGE_ORIGIN);
  answerer.token = hub.token;
  const conversation = await hub.conversation();
  const stream = hub.stream(conversation);
  await stream.ready;
  const mcp = new Client({ name: `diosc-load-${index}`, version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${home}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${target.mcpToken}` } },
    }),
  );
  return { index, hub, answerer, conversation, stream, mcp, owner, lastUpload: 0, n: 0 };
}

/** Runs the mix for `seconds` with `workers` in parallel; streams stay open until the caller closes them. */
export async function runMix(
  target: LoadTarget,
  options: {
    seconds: number;
    workers: number;
    /**
     * Instances over one store: worker i streams, chats, uploads and calls /mcp on instance i and
     * answers and decides on the next one (owner writes go to the target's own URL). Default: one.
     */
    instances?: string[];
  },
): Promise<
  MixResult & { received(): Record<string, number>; recordStreams(): void; close(): Promise<void> }
> {
  const owner = await signIn(target);
  const workers: Worker[] = [];
  const instances = options.instances ?? [target.url];
  for (let index = 0; index < options.workers; index++)
    workers.push(await openWorker(target, index, owner, instances));
  const ledger = emptyLedger();
  const outcomes: Outcome[] = [];
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  await Promise.all(
    workers.map(async (worker) => {
      for (let step = worker.index; performance.now() < deadline; step++) {
        let kind = CYCLE[step % CYCLE.length]!;
        if (kind === 'upload') {
          if (Date.now() - worker.lastUpload < UPLOAD_EVERY_MS) kind = 'mcp items_list';
          else worker.lastUpload = Date.now();
        }
        worker.n++;
        const begin = performance.now();
        let result = 'ok';
        try {
          await operations[kind](worker, target, ledger);
        } catch (error) {
          result = error instanceof Failure ? error.code : `threw: ${String(error).slice(0, 80)}`;
        }
        outcomes.push({ kind, ms: performance.now() - begin, result });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    outcomes,
    ledger,
    seconds,
    workers: options.workers,
    received() {
      return Object.fromEntries(workers.map((worker) => [worker.conversation, worker.stream.events.length]));
    },
    recordStreams() {
      for (const worker of workers)
        ledger.streams[worker.conversation] = worker.stream.events.map((event) => event.id);
    },
    async close() {
      for (const worker of workers) {
        worker.stream.close();
        await worker.mcp.close();
      }
    },
  };
}
