// Measurement 4 (issue 28): what a step costs the server as the conversation grows, and against
// the no-persistence baseline — the AI SDK's own stateless chat route (`streamText` over the
// history the client re-sends, sdk-chat-server.ts) on the same scripted model.
//   - per turn of one browser round trip (message → tool call → result → reply), server CPU at
//     every turn of one long conversation: the slope against history length, ours and theirs;
//   - per chat turn (message → reply, no tool) on a fresh conversation;
//   - peak turns per second with CONCURRENCY conversations running at once.
// Server CPU is read from each server process over IPC before and after each turn (never during).
import { performance } from 'node:perf_hooks';
import type { AbstractChat, UIMessage } from 'ai';
import { settled } from './bytes.js';
import type { Child } from './children.js';
import { REGISTRY, RESULT, userText } from './fixtures.js';
import { HubClient, interruptOf } from './hub-client.js';
import { type HubInfo, minus, type Usage, usageOf } from './latency.js';
import { createSdkChat } from './sdk-chat.js';
import { median } from './stats.js';

export const WINDOWS = [
  [1, 5],
  [48, 52],
  [146, 150],
] as const;
export const LONG_CONVERSATION = WINDOWS.at(-1)![1];
const CONCURRENCY = 8;

export interface TurnCost {
  turn: number;
  cpuMs: number;
  statements: number;
  commits: number;
}

export interface SideCost {
  /** Every turn of the long conversation, in order. */
  turns: TurnCost[];
  /** Least-squares slope of CPU per turn against the turn's position (ms per turn of history). */
  slopeMs: number;
  /** Median CPU per turn in each of WINDOWS. */
  windows: { from: number; to: number; cpuMs: number }[];
  /** Median CPU of a chat turn (no tool) on a fresh conversation. */
  chatTurnMs: number;
  /** Turns of one round trip finished per second, CONCURRENCY conversations at once. */
  turnsPerSecond: number;
}

export interface StepCostResult {
  concurrency: number;
  ours: SideCost;
  baseline: SideCost;
}

function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  const covariance = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const variance = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return covariance / variance;
}

function summarize(turns: TurnCost[], chatTurnMs: number, turnsPerSecond: number): SideCost {
  return {
    turns,
    slopeMs: slope(turns.map((turn) => ({ x: turn.turn, y: turn.cpuMs }))),
    windows: WINDOWS.map(([from, to]) => ({
      from,
      to,
      cpuMs: median(turns.filter((turn) => turn.turn >= from && turn.turn <= to).map((turn) => turn.cpuMs)),
    })),
    chatTurnMs,
    turnsPerSecond,
  };
}

const cost = (turn: number, used: Usage): TurnCost => ({
  turn,
  cpuMs: used.cpuMicros / 1000,
  statements: used.statements,
  commits: used.commits,
});

/** One turn of one round trip on our hub, over an open stream; returns the next cursor. */
async function oursTurn(
  client: HubClient,
  conversation: string,
  stream: ReturnType<HubClient['stream']>,
  cursor: number,
  turn: number,
): Promise<number> {
  await client.send(conversation, { text: userText(turn), registry: REGISTRY });
  const asked = await stream.next('interrupt', cursor);
  await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
  const done = await stream.next('turn.done', asked.index + 1);
  return done.index + 1;
}

async function oursLong(hub: Child<HubInfo>): Promise<TurnCost[]> {
  const usage = usageOf(hub);
  const client = new HubClient(hub.info.url);
  await client.open(hub.info.publishableKey);
  const conversation = await client.conversation();
  const stream = client.stream(conversation);
  await stream.ready;
  const turns: TurnCost[] = [];
  let cursor = 0;
  try {
    for (let turn = 1; turn <= LONG_CONVERSATION; turn++) {
      const before = await usage();
      cursor = await oursTurn(client, conversation, stream, cursor, turn);
      turns.push(cost(turn, minus(await usage(), before)));
    }
  } finally {
    stream.close();
  }
  return turns;
}

async function sdkTurn(chat: AbstractChat<UIMessage>, turn: number): Promise<void> {
  await chat.sendMessage({ text: userText(turn) });
  await settled(chat);
}

async function sdkLong(sdk: Child<{ url: string }>): Promise<TurnCost[]> {
  const usage = usageOf(sdk);
  const { chat } = createSdkChat(sdk.info.url);
  const turns: TurnCost[] = [];
  for (let turn = 1; turn <= LONG_CONVERSATION; turn++) {
    const before = await usage();
    await sdkTurn(chat, turn);
    turns.push(cost(turn, minus(await usage(), before)));
  }
  return turns;
}

/** Median server CPU of `samples` chat turns, each on a fresh conversation (hub started with 0 calls). */
async function oursChat(hub: Child<HubInfo>, samples: number): Promise<number> {
  const usage = usageOf(hub);
  const client = new HubClient(hub.info.url);
  await client.open(hub.info.publishableKey);
  const costs: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const conversation = await client.conversation();
    const stream = client.stream(conversation);
    await stream.ready;
    try {
      const before = await usage();
      await client.send(conversation, { text: userText(1), registry: REGISTRY });
      await stream.next('turn.done', 0);
      costs.push(minus(await usage(), before).cpuMicros / 1000);
    } finally {
      stream.close();
    }
  }
  return median(costs);
}

async function sdkChat(sdk: Child<{ url: string }>, samples: number): Promise<number> {
  const usage = usageOf(sdk);
  const costs: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const { chat } = createSdkChat(sdk.info.url);
    const before = await usage();
    await chat.sendMessage({ text: userText(1) });
    await settled(chat);
    costs.push(minus(await usage(), before).cpuMicros / 1000);
  }
  return median(costs);
}

/** Turns per second with CONCURRENCY conversations each running `turnsEach` turns at once. */
async function oursThroughput(hub: Child<HubInfo>, turnsEach: number): Promise<number> {
  const client = new HubClient(hub.info.url);
  await client.open(hub.info.publishableKey);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const conversation = await client.conversation();
      const stream = client.stream(conversation);
      await stream.ready;
      let cursor = 0;
      try {
        for (let turn = 1; turn <= turnsEach; turn++) {
          cursor = await oursTurn(client, conversation, stream, cursor, turn);
        }
      } finally {
        stream.close();
      }
    }),
  );
  return (CONCURRENCY * turnsEach) / ((performance.now() - start) / 1000);
}

async function sdkThroughput(sdk: Child<{ url: string }>, turnsEach: number): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const { chat } = createSdkChat(sdk.info.url);
      for (let turn = 1; turn <= turnsEach; turn++) await sdkTurn(chat, turn);
    }),
  );
  return (CONCURRENCY * turnsEach) / ((performance.now() - start) / 1000);
}

export interface StepCostServers {
  /** Our hub with one round trip per turn, and with none (chat turns). */
  hub: Child<HubInfo>;
  chatHub: Child<HubInfo>;
  sdk: Child<{ url: string }>;
  chatSdk: Child<{ url: string }>;
}

/** Everything above, ours and the baseline interleaved measurement by measurement. */
export async function measureStepCost(servers: StepCostServers, samples: number): Promise<StepCostResult> {
  const { hub, chatHub, sdk, chatSdk } = servers;
  // Warm-up (JIT, statement caches), then forget it.
  await oursThroughput(hub, 3);
  await sdkThroughput(sdk, 3);
  await oursChat(chatHub, 5);
  await sdkChat(chatSdk, 5);
  const oursTurns = await oursLong(hub);
  const sdkTurns = await sdkLong(sdk);
  const oursChatMs = await oursChat(chatHub, samples);
  const sdkChatMs = await sdkChat(chatSdk, samples);
  const turnsEach = Math.max(5, Math.round(samples / 4));
  const oursRate = await oursThroughput(hub, turnsEach);
  const sdkRate = await sdkThroughput(sdk, turnsEach);
  return {
    concurrency: CONCURRENCY,
    ours: summarize(oursTurns, oursChatMs, oursRate),
    baseline: summarize(sdkTurns, sdkChatMs, sdkRate),
  };
}
