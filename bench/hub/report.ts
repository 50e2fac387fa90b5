// The hub benchmark's report: the goals of issues 11 and 28 judged against the numbers, and the
// markdown.
import type { TurnBytes } from './bytes.js';
import { type LatencyResult, PER_TURN } from './latency.js';
import type { MemoryResult } from './memory.js';
import type { StepCostResult } from './step-cost.js';

export interface HubReport {
  benchmark: string;
  at: string;
  seconds: number;
  machine: { cpus: number; cpu: string; node: string; loadavg: { before: number[]; after: number[] } };
  bytes: {
    resultBytes: number;
    sdkVersion: string;
    conversations: { turns: number; ours: TurnBytes[]; sdk: TurnBytes[] }[];
  };
  latency: LatencyResult;
  memory: MemoryResult;
  stepCost: StepCostResult;
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean;
}

const BYTES_GOAL = 400;
const ADDED_P50_GOAL_MS = 5;
const PER_TURN_GOAL_BYTES = 5 * 1024;
const IDLE_STREAMS_GOAL_SHARE = 0.02;
const STATEMENTS_GOAL = 12;
const COMMITS_GOAL = 3;
const SLOPE_GOAL_MS = 0.05;
const ROUND_TRIP_GOAL_RATIO = 1.3;
const CHAT_TURN_GOAL_RATIO = 1.5;
const THROUGHPUT_GOAL_RATIO = 0.7;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number) => value.toFixed(2);
const share = (value: number) => `${(value * 100).toFixed(2)} %`;

export function goals(report: HubReport): Goal[] {
  const ours = report.bytes.conversations.flatMap((row) => row.ours.map((turn) => turn.result));
  const oursMax = Math.max(...ours);
  const constant = Math.min(...ours) === oursMax;
  const { memory } = report;
  const perTurn = memory.perTurn.heapUsed + memory.perTurn.external;
  const sample = memory.resumed.live + memory.resumed.afterRestart;
  const resumed =
    memory.resumed.finished === sample &&
    memory.resumed.failed === 0 &&
    memory.resumed.waitingAfterRestart === memory.turns - memory.resumed.live &&
    memory.resumed.stillWaiting === memory.turns - sample;
  return [
    {
      goal: `bytes upstream per browser-tool result constant and ≤ ${BYTES_GOAL} B at every turn`,
      measured: `${constant ? 'constant' : 'not constant'}, max ${oursMax} B over ${ours.length} turns`,
      met: constant && oursMax <= BYTES_GOAL,
    },
    {
      goal: `added latency per browser-tool round trip ≤ ${ADDED_P50_GOAL_MS} ms p50 over loopback`,
      measured: `${ms(report.latency.added.p50)} ms (ours ${ms(report.latency.ours.p50)} − bare ${ms(report.latency.bare.p50)})`,
      met: report.latency.added.p50 <= ADDED_P50_GOAL_MS,
    },
    {
      goal: `${memory.turns.toLocaleString('en')} turns waiting on interrupts: ≤ 5 KB each (heap + external), all resumable`,
      measured: `${kb(perTurn)} per turn; ${memory.resumed.finished}/${sample} sampled turns finished (${memory.resumed.afterRestart} after a restart), ${memory.resumed.stillWaiting} still waiting`,
      met: perTurn <= PER_TURN_GOAL_BYTES && resumed,
    },
    {
      goal: `${memory.streams.toLocaleString('en')} idle event streams ≤ ${share(IDLE_STREAMS_GOAL_SHARE)} of a core (issue 28)`,
      measured: `${share(memory.idle.ours.cpuShare)} of a core, ${memory.idle.ours.statements} SQL statements in ${memory.idle.ours.seconds.toFixed(0)} s (bare echo holding as many: ${share(memory.idle.bare.cpuShare)})`,
      met: memory.idle.ours.cpuShare <= IDLE_STREAMS_GOAL_SHARE,
    },
    ...stepGoals(report),
  ];
}

/** Issue 28's cost goals, each against the baseline of the same run. */
function stepGoals(report: HubReport): Goal[] {
  const { statementsPerRoundTrip, commitsPerRoundTrip } = report.latency;
  const { ours, baseline } = report.stepCost;
  const first = (side: typeof ours) => side.windows[0]!.cpuMs;
  const roundTripRatio = first(ours) / first(baseline);
  const chatRatio = ours.chatTurnMs / baseline.chatTurnMs;
  const throughputRatio = ours.turnsPerSecond / baseline.turnsPerSecond;
  return [
    {
      goal: `≤ ${STATEMENTS_GOAL} SQL statements and ≤ ${COMMITS_GOAL} commits per browser round trip (issue 28)`,
      measured: `${statementsPerRoundTrip.toFixed(1)} statements, ${commitsPerRoundTrip.toFixed(1)} commits`,
      met: statementsPerRoundTrip <= STATEMENTS_GOAL && commitsPerRoundTrip <= COMMITS_GOAL,
    },
    {
      goal: `slope of server CPU per round-trip turn against history ≤ ${SLOPE_GOAL_MS} ms per turn (issue 28)`,
      measured: `${ours.slopeMs.toFixed(3)} ms per turn (AI SDK route: ${baseline.slopeMs.toFixed(3)})`,
      met: ours.slopeMs <= SLOPE_GOAL_MS,
    },
    {
      goal: `server CPU per turn of one browser round trip ≤ ${ROUND_TRIP_GOAL_RATIO}× the no-persistence baseline (issue 28)`,
      measured: `${roundTripRatio.toFixed(2)}× (${ms(first(ours))} vs ${ms(first(baseline))} ms, turns 1–5)`,
      met: roundTripRatio <= ROUND_TRIP_GOAL_RATIO,
    },
    {
      goal: `server CPU per chat turn ≤ ${CHAT_TURN_GOAL_RATIO}× the baseline (issue 28)`,
      measured: `${chatRatio.toFixed(2)}× (${ms(ours.chatTurnMs)} vs ${ms(baseline.chatTurnMs)} ms)`,
      met: chatRatio <= CHAT_TURN_GOAL_RATIO,
    },
    {
      goal: `peak round-trip turns per second ≥ ${THROUGHPUT_GOAL_RATIO}× the baseline's (issue 28)`,
      measured: `${throughputRatio.toFixed(2)}× (${ours.turnsPerSecond.toFixed(1)} vs ${baseline.turnsPerSecond.toFixed(1)} per s, ${report.stepCost.concurrency} conversations at once)`,
      met: throughputRatio >= THROUGHPUT_GOAL_RATIO,
    },
  ];
}

function bytesSection(report: HubReport): string[] {
  const { conversations, resultBytes } = report.bytes;
  const longest = conversations.at(-1)!;
  const ours = conversations.flatMap((row) => row.ours.map((turn) => turn.result));
  const sdkGrowth = (longest.sdk.at(-1)!.result - longest.sdk[0]!.result) / (longest.turns - 1);
  const total = (turns: TurnBytes[]) => turns.reduce((sum, turn) => sum + turn.turn, 0);
  return [
    '## 1. Bytes upstream per browser-tool result',
    '',
    `One conversation each of ${conversations.map((row) => row.turns).join(', ')} turns; every turn one \`read_page\` round trip with the same ${resultBytes}-byte result. **Ours**: the body of \`POST /api/hub/interrupts/:id/answer\` (\`{ "result": … }\` only). **AI SDK**: the body of the request \`AbstractChat\` + \`DefaultChatTransport\` (ai ${report.bytes.sdkVersion}) sends after \`addToolOutput\` (\`sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls\`) to a \`streamText(…).pipeUIMessageStreamToResponse()\` route on the same scripted model. Request bodies only (headers excluded on both sides).`,
    '',
    '| at turn | ours (B) | AI SDK chat client (B) | AI SDK / ours |',
    '|---:|---:|---:|---:|',
    ...conversations.map((row) => {
      const o = row.ours.at(-1)!.result;
      const s = row.sdk.at(-1)!.result;
      return `| ${row.turns} | ${o} | ${s.toLocaleString('en')} | ${(s / o).toFixed(1)}× |`;
    }),
    '',
    `Ours over all ${ours.length} turns: ${Math.min(...ours)}–${Math.max(...ours)} B. The AI SDK's grows by ${sdkGrowth.toFixed(0)} B per turn (the whole history is re-sent).`,
    '',
    '| conversation | everything ours sent (B) | everything the AI SDK client sent (B) | ratio |',
    '|---:|---:|---:|---:|',
    ...conversations.map(
      (row) =>
        `| ${row.turns} turn${row.turns === 1 ? '' : 's'} | ${total(row.ours).toLocaleString('en')} | ${total(row.sdk).toLocaleString('en')} | ${(total(row.sdk) / total(row.ours)).toFixed(1)}× |`,
    ),
    '',
    '(“Everything” is each turn’s user message plus its tool result; our message carries the page registry, no snapshot.)',
    '',
    `Time from sending the tool result to the final reply fully received (ours: the \`turn.done\` event; AI SDK: the chat's \`onFinish\`), median over windows of the ${longest.turns}-turn conversation — how each side's work grows with the history (single samples per turn, so noisy on a busy machine):`,
    '',
    '| turns | ours (ms) | AI SDK chat client (ms) |',
    '|---|---:|---:|',
    ...windows(longest.turns).map(
      ([from, to]) =>
        `| ${from}–${to} | ${ms(median(longest.ours, from, to))} | ${ms(median(longest.sdk, from, to))} |`,
    ),
    '',
  ];
}

/** Five-turn windows at the start, around turn 10 and at the end of a conversation. */
function windows(turns: number): [number, number][] {
  const all: [number, number][] = [
    [1, 5],
    [8, 12],
    [turns - 4, turns],
  ];
  return all.filter(([from, to]) => from >= 1 && to <= turns);
}

function median(rows: TurnBytes[], from: number, to: number): number {
  const values = rows
    .slice(from - 1, to)
    .map((row) => row.replyMs)
    .sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

function latencySection(report: HubReport): string[] {
  const { ours, bare, added, statementsPerRoundTrip, cpuMsPerRoundTrip } = report.latency;
  const row = (name: string, p: typeof ours) =>
    `| ${name} | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(p.p99)} | ${ms(p.mean)} | ${p.n} |`;
  return [
    '## 2. Added latency per browser-tool round trip (loopback)',
    '',
    `From sending the answer POST to the next \`interrupt\` event arriving on the already-open SSE stream. **Ours**: the real hub (visitor auth, answer compare-and-set, event log, turn lease, one \`streamText\` step on a scripted model that answers instantly, the next interrupt persisted and streamed), ${PER_TURN} round trips per turn, a fresh conversation per turn. **Bare**: a node:http server that, on POST, parses the body and writes one SSE event of the same size to the open stream. Same client code, same headers and body; blocks interleaved; both servers in their own processes.`,
    '',
    '| | p50 (ms) | p95 (ms) | p99 (ms) | mean (ms) | n |',
    '|---|---:|---:|---:|---:|---:|',
    row('ours', ours),
    row('bare POST + SSE echo', bare),
    `| **added (ours − bare)** | **${ms(added.p50)}** | ${ms(added.p95)} | ${ms(added.p99)} | ${ms(ours.mean - bare.mean)} | |`,
    `| ours / bare | ${(ours.p50 / bare.p50).toFixed(1)}× | ${(ours.p95 / bare.p95).toFixed(1)}× | ${(ours.p99 / bare.p99).toFixed(1)}× | ${(ours.mean / bare.mean).toFixed(1)}× | |`,
    '',
    `Server CPU time per round trip (user + system, read from each server process between blocks): ours ${ms(cpuMsPerRoundTrip.ours)} ms, bare ${ms(cpuMsPerRoundTrip.bare)} ms (${(cpuMsPerRoundTrip.ours / cpuMsPerRoundTrip.bare).toFixed(1)}×) — less sensitive to a busy machine than wall time. The hub ran ${statementsPerRoundTrip.toFixed(1)} SQL statements and ${report.latency.commitsPerRoundTrip.toFixed(1)} commits per round trip (counted at the driver in the benchmark's server: every statement on the writer and the read-only connection, Kysely's and the prepared reads alike; a commit is a transaction's \`commit\` or a write outside a transaction).`,
    '',
    ...roundTripStatements(report.latency.oneRoundTrip),
  ];
}

/** One round trip's statements, each distinct text once with how often it ran, in first-run order. */
function roundTripStatements(statements: string[]): string[] {
  const times = new Map<string, number>();
  for (const statement of statements) times.set(statement, (times.get(statement) ?? 0) + 1);
  const cell = (text: string) =>
    `\`${text.length > 140 ? `${text.slice(0, 140)}…` : text}\``.replaceAll('|', '\\|');
  return [
    `<details><summary>The ${statements.length} statements of one round trip (transaction control included), each text once</summary>`,
    '',
    '| times | statement |',
    '|---:|---|',
    ...[...times].map(([text, count]) => `| ${count} | ${cell(text)} |`),
    '',
    '</details>',
    '',
  ];
}

function memorySection(report: HubReport): string[] {
  const m = report.memory;
  const phase = (name: string, p: MemoryResult['phases']['base']) =>
    `| ${name} | ${mb(p.memory.heapUsed)} | ${mb(p.memory.external)} | ${mb(p.memory.rss)} | ${mb(p.storeBytes)} | ${(p.turns.waiting ?? 0).toLocaleString('en')} |`;
  const per = (name: string, p: { heapUsed: number; external: number; rss: number; store?: number }) =>
    `| ${name} | ${kb(p.heapUsed)} | ${kb(p.external)} | ${kb(p.rss)} | ${p.store === undefined ? '' : kb(p.store)} |`;
  const n = m.turns.toLocaleString('en');
  return [
    `## 3. Memory of ${n} turns waiting on browser interrupts`,
    '',
    `The hub in a child process (\`--expose-gc\`) on a fresh SQLite store in a temp dir; this process plays ${Math.ceil(m.turns / 500)} visitor sessions over HTTP. After each phase the child runs a full GC and reports \`process.memoryUsage()\`. **Baseline**: the same process holding ${n} conversations and no waiting turn. Then each conversation gets a message whose turn calls \`read_page\` and waits on its interrupt (no turn runner is left in flight: a waiting turn lives in the store).`,
    '',
    '| phase | heapUsed | external | rss | store on disk | turns waiting |',
    '|---|---:|---:|---:|---:|---:|',
    phase('warmed up', m.phases.base),
    phase(`+ ${n} conversations (baseline)`, m.phases.convs),
    phase(`+ ${n} waiting turns`, m.phases.waiting),
    phase(`+ ${m.streams.toLocaleString('en')} open SSE streams`, m.phases.streams),
    '',
    '| per … | heapUsed | external | rss | store on disk |',
    '|---|---:|---:|---:|---:|',
    per('**waiting turn** (waiting − baseline) / N', m.perTurn),
    per('conversation (baseline − warmed up) / N', m.perConversation),
    per(`open SSE stream (a visitor still on the page), / ${m.streams}`, m.perStream),
    per(`baseline: open SSE stream on the bare node:http echo, / ${m.streams}`, m.perBareStream),
    '',
    `**Idle streams**: with the ${m.streams.toLocaleString('en')} streams open and their turns waiting, nobody asked the hub anything for ${m.idle.ours.seconds.toFixed(0)} s: it used ${share(m.idle.ours.cpuShare)} of a core and ran ${m.idle.ours.statements} SQL statements, those of its 1-second sweep for overdue deadlines and orphaned turns (its one log watch reads the log only after a commit). The bare echo holding as many streams for as long: ${share(m.idle.bare.cpuShare)} of a core.`,
    '',
    `RSS is shown for honesty but is noisy after a burst of requests (allocator slack); the goal is judged on heap + external. Setting up took ${m.setupSeconds.toFixed(0)} s.`,
    '',
    `**Resumability**: ${m.resumed.live} random waiting turns answered in that process, then the process was stopped and a new one started on the same store (${m.resumed.waitingAfterRestart.toLocaleString('en')} turns still waiting when it came up), and ${m.resumed.afterRestart} more answered there — each the way a reloaded kit does it (\`GET /conversations/:id\` → its pending interrupt → answer). Finished with the scripted reply: **${m.resumed.finished}/${m.resumed.live + m.resumed.afterRestart}**, failed: ${m.resumed.failed}, left waiting: ${m.resumed.stillWaiting.toLocaleString('en')} (${m.resumed.seconds.toFixed(0)} s).`,
    '',
    `\`GET /conversations/:id\` one at a time: p50 ${ms(m.view.empty.p50)} ms with only the warm-up in the store, ${ms(m.view.full.p50)} ms with ${n} turns.`,
    '',
  ];
}

function stepCostSection(report: HubReport): string[] {
  const { ours, baseline, concurrency } = report.stepCost;
  const longest = ours.turns.length;
  return [
    '## 4. Cost per step as the history grows, against the no-persistence baseline',
    '',
    `**Baseline**: the AI SDK's own stateless chat route (\`streamText\` over the history the client re-sends, streamed back as a UI message stream, no store) on the same scripted model, driven by its own chat client. A turn is one user message, one \`read_page\` round trip and the reply; server CPU (user + system) is read from each server process before and after every turn of one ${longest}-turn conversation.`,
    '',
    '| turns | ours (ms CPU per turn) | baseline (ms) | ours / baseline |',
    '|---|---:|---:|---:|',
    ...ours.windows.map((window, index) => {
      const theirs = baseline.windows[index]!;
      return `| ${window.from}–${window.to} | ${ms(window.cpuMs)} | ${ms(theirs.cpuMs)} | ${(window.cpuMs / theirs.cpuMs).toFixed(2)}× |`;
    }),
    `| slope (least squares over all ${longest} turns, ms per turn) | ${ours.slopeMs.toFixed(3)} | ${baseline.slopeMs.toFixed(3)} | |`,
    '',
    `A chat turn (message → reply, no tool) on a fresh conversation, median: ours ${ms(ours.chatTurnMs)} ms, baseline ${ms(baseline.chatTurnMs)} ms (${(ours.chatTurnMs / baseline.chatTurnMs).toFixed(2)}×). Peak throughput with ${concurrency} conversations at once, each turn one round trip: ours ${ours.turnsPerSecond.toFixed(1)} turns/s, baseline ${baseline.turnsPerSecond.toFixed(1)} turns/s (the load generator shares the machine with both).`,
    '',
  ];
}

export function renderMarkdown(report: HubReport): string {
  const { machine } = report;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  return [
    `# Hub benchmark — ${report.at}`,
    '',
    `${machine.cpus} CPUs (${machine.cpu}), Node ${machine.node}; load average ${load(machine.loadavg.before)} before, ${load(machine.loadavg.after)} after (the machine is shared). ${report.seconds.toFixed(0)} s in all. Every number below has its baseline measured in this same run.`,
    '',
    '| goal (issues 11, 28) | measured | met |',
    '|---|---|:-:|',
    ...goals(report).map((goal) => `| ${goal.goal} | ${goal.measured} | ${goal.met ? 'yes' : '**no**'} |`),
    '',
    ...bytesSection(report),
    ...latencySection(report),
    ...memorySection(report),
    ...stepCostSection(report),
  ].join('\n');
}
