// `npm run bench` (hub part): the three measurements issue 11 asks of the hub, each against a
// baseline measured in this same run, written to test-results/bench/hub.json and hub.md
// (`npm run docs:refresh` copies them to bench/results/).
//   1. bytes upstream per browser-tool result — ours vs the AI SDK's chat client (1, 10, 60 turns)
//   2. added latency per browser-tool round trip — ours vs a bare HTTP POST + SSE echo
//   3. memory of N turns waiting on interrupts (10,000) — vs the same process with N conversations
//   4. server CPU per step as the history grows (1, 50, 150 turns), per chat turn, and peak turns/s
//      — vs the AI SDK's stateless chat route (issue 28)
// BENCH_DURATION (seconds, default 10) scales the round trips (50 per second) and the resumed
// sample (100 per second); BENCH_HUB_TURNS overrides the 10,000 waiting turns for quick runs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { oursConversation, sdkConversation, type TurnBytes } from './bytes.js';
import { root, startChild } from './children.js';
import { RESULT_BYTES } from './fixtures.js';
import { measureLatency } from './latency.js';
import { measureMemory } from './memory.js';
import { goals, type HubReport, renderMarkdown } from './report.js';
import { measureStepCost } from './step-cost.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUND_TRIPS = Math.max(100, Math.round(50 * DURATION_S));
const RESUME_SAMPLE = Math.max(100, Math.round(100 * DURATION_S));
const WAITING_TURNS = Number(process.env.BENCH_HUB_TURNS ?? 10_000);
const OPEN_STREAMS = Math.min(1_000, WAITING_TURNS);
const CONVERSATIONS = [1, 10, 60];

type HubInfo = { url: string; publishableKey: string };
const hubServer = 'bench/hub/hub-server.ts';

async function bytesUpstream(): Promise<HubReport['bytes']> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-hub-'));
  const hub = await startChild<HubInfo>(hubServer, { HUB_BENCH_DIR: dir, HUB_BENCH_CALLS: '1' });
  const sdk = await startChild<{ url: string }>('bench/hub/sdk-chat-server.ts');
  try {
    const rows = [];
    for (const turns of CONVERSATIONS) {
      const ours: TurnBytes[] = await oursConversation(hub, turns);
      const theirs: TurnBytes[] = await sdkConversation(sdk.info.url, turns);
      rows.push({ turns, ours, sdk: theirs });
      console.log(
        `bytes · ${turns} turn${turns === 1 ? '' : 's'}: ours ${ours.at(-1)!.result} B at turn ${turns}, AI SDK ${theirs.at(-1)!.result} B`,
      );
    }
    const ai = JSON.parse(readFileSync(join(root, 'node_modules/ai/package.json'), 'utf8')) as {
      version: string;
    };
    return { resultBytes: RESULT_BYTES, sdkVersion: ai.version, conversations: rows };
  } finally {
    await Promise.all([hub.stop(), sdk.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function latency(): Promise<HubReport['latency']> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-hub-'));
  // Each turn: PER_TURN measured round trips, then one more call ends it (see latency.ts).
  const hub = await startChild<HubInfo>(hubServer, { HUB_BENCH_DIR: dir, HUB_BENCH_CALLS: '11' });
  const echo = await startChild<{ url: string }>('bench/hub/echo-server.ts');
  try {
    const result = await measureLatency(hub, echo, ROUND_TRIPS);
    console.log(
      `latency · p50 ours ${result.ours.p50.toFixed(2)} ms, bare ${result.bare.p50.toFixed(2)} ms, added ${result.added.p50.toFixed(2)} ms`,
    );
    return result;
  } finally {
    await Promise.all([hub.stop(), echo.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stepCost(): Promise<HubReport['stepCost']> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-hub-'));
  const chatDir = mkdtempSync(join(tmpdir(), 'diosc-bench-hub-'));
  const servers = await Promise.all([
    startChild<HubInfo>(hubServer, { HUB_BENCH_DIR: dir, HUB_BENCH_CALLS: '1' }),
    startChild<HubInfo>(hubServer, { HUB_BENCH_DIR: chatDir, HUB_BENCH_CALLS: '0' }),
    startChild<{ url: string }>('bench/hub/sdk-chat-server.ts', { SDK_BENCH_CALLS: '1' }),
    startChild<{ url: string }>('bench/hub/sdk-chat-server.ts', { SDK_BENCH_CALLS: '0' }),
  ]);
  const [hub, chatHub, sdk, chatSdk] = servers;
  try {
    const result = await measureStepCost({ hub, chatHub, sdk, chatSdk }, Math.max(20, 4 * DURATION_S));
    console.log(
      `step cost · slope ours ${result.ours.slopeMs.toFixed(3)} ms/turn, AI SDK ${result.baseline.slopeMs.toFixed(3)}; chat turn ${result.ours.chatTurnMs.toFixed(2)} vs ${result.baseline.chatTurnMs.toFixed(2)} ms`,
    );
    return result;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    for (const path of [dir, chatDir]) rmSync(path, { recursive: true, force: true });
  }
}

const startedAt = new Date();
const loadBefore = loadavg();
const bytes = await bytesUpstream();
const latencyResult = await latency();
const stepCostResult = await stepCost();
const memory = await measureMemory(WAITING_TURNS, OPEN_STREAMS, RESUME_SAMPLE);
console.log(
  `memory · ${(memory.perTurn.heapUsed / 1024).toFixed(2)} KB heap per waiting turn; resumed ${memory.resumed.finished}/${memory.resumed.live + memory.resumed.afterRestart}`,
);

const report: HubReport = {
  benchmark: 'hub: bytes upstream, round-trip latency, memory of waiting turns, cost per step',
  at: startedAt.toISOString(),
  seconds: (Date.now() - startedAt.getTime()) / 1000,
  machine: {
    cpus: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadavg: { before: loadBefore, after: loadavg() },
  },
  bytes,
  latency: latencyResult,
  memory,
  stepCost: stepCostResult,
};
const markdown = renderMarkdown(report);
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'hub.json'), `${JSON.stringify({ ...report, goals: goals(report) }, null, 2)}\n`);
writeFileSync(join(dir, 'hub.md'), markdown);
console.log(
  `\n${markdown}\nWritten to test-results/bench/hub.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
);
