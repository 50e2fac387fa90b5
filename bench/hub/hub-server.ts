// Our hub for the benchmarks, in its own process: the real app over SQLite in HUB_BENCH_DIR, one
// assistant on a scripted model that answers instantly (HUB_BENCH_CALLS browser round trips per
// turn). Prints { url, publishableKey } once listening. Started again on the same directory it
// reuses the store as it is — a restart. Over IPC it answers { type: 'measure' } (its memory after
// a full GC, so a parent can weigh this process alone), { type: 'counts' } (what the store holds)
// { type: 'usage' } (SQL statements and commits run, and CPU time used, so far), and
// { type: 'record' } / { type: 'recorded' } (the text of every statement run in between).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { buildApp, ensureOwner, loadConfig, openStore, systemClock } from '@diosc/server';
import { benchModel } from './bench-model.js';
import { roundTripScript } from './fixtures.js';
import { serveBenchHub } from './serve-bench-hub.js';
import { sqlCounts, startRecording, stopRecording } from './sql-counter.js';

const ASSISTANT = 'Bench assistant';
const dir = process.env.HUB_BENCH_DIR!;
const sqlitePath = join(dir, 'diosc.sqlite');
// HUB_BENCH_METRICS_TOKEN and HUB_BENCH_OTLP_URL turn metrics and traces on the way an operator
// does (observability.ts measures the round trip with and without them).
const config = loadConfig(
  {
    DIOSC_DATA_DIR: dir,
    DIOSC_OWNER_PASSWORD: 'bench password',
    DIOSC_LOG_LEVEL: 'silent',
    DIOSC_METRICS_TOKEN: process.env.HUB_BENCH_METRICS_TOKEN,
    DIOSC_TRACES_OTLP_URL: process.env.HUB_BENCH_OTLP_URL,
    DIOSC_TRACES_SAMPLE_RATIO: process.env.HUB_BENCH_TRACES_SAMPLE_RATIO,
  },
  dir,
);
const store = await openStore({ sqlitePath });
const { accountId } = await ensureOwner(store, config, systemClock);
const model = benchModel(roundTripScript(Number(process.env.HUB_BENCH_CALLS ?? 1)), 'scripted-bench');
const app = await buildApp({
  config,
  store,
  logger: false,
  hub: { scriptedModels: { bench: model } },
  // This process plays thousands of visitors from one address, several hundred conversations per
  // visitor session: the caps that keep one stranger from taking every connection would refuse it.
  http: {
    maxConnections: 8_192,
    maxConnectionsPerAddress: 8_192,
    visitorStreamsPerSession: 8_192,
    visitorStreamsPerAddress: 8_192,
    visitorRequestsPerSession: 8_192,
    visitorRequestsPerAddress: 8_192,
  },
});
await serveBenchHub(app, accountId, ASSISTANT);
const hub = app.diosc.hub!;

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** What the store holds: turns by status, runners in flight, the database's size on disk. */
async function counts() {
  const turns = await store.db
    .selectFrom('hub_turns')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  return {
    turns: Object.fromEntries(turns.map((row) => [row.status, Number(row.count)])),
    activeRunners: hub.runner.activeCount,
    storeBytes: fileSize(sqlitePath) + fileSize(`${sqlitePath}-wal`),
  };
}

/** Memory after a full GC: several rounds, a turn of the event loop between, so finalizers settle. */
async function measure() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('start this process with --expose-gc');
  for (let round = 0; round < 4; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { memory: process.memoryUsage(), ...(await counts()) };
}

/**
 * The main thread's CPU so far, in microseconds (Linux's per-thread clock ticks): the rest of
 * `process.cpuUsage()` is V8's and libuv's helper threads — concurrent GC marking and sweeping,
 * optimizing compiles, file and DNS work.
 */
const TICK_MICROS = 10_000;
function mainThreadMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return undefined;
  }
}

/** The main thread's GC pauses so far, in microseconds: scavenges, and the rest (mark-compact, incremental steps). */
const gcPauses = { minor: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    gcPauses[kind === 1 ? 'minor' : 'major'] += entry.duration * 1000;
  }
}).observe({ entryTypes: ['gc'] });

const requests: Record<string, () => Promise<object>> = {
  usage: async () => ({
    ...sqlCounts(),
    cpu: process.cpuUsage(),
    mainThreadMicros: mainThreadMicros(),
    gcPauseMicros: { ...gcPauses },
  }),
  counts,
  measure,
  record: async () => {
    startRecording();
    return {};
  },
  recorded: async () => ({ statements: stopRecording() }),
};

process.on('message', (message: { type?: string }) => {
  const answer = requests[message.type ?? ''];
  if (!answer) return;
  answer().then(
    (result) => process.send?.({ type: message.type, ...result }),
    (error: unknown) => process.send?.({ type: 'error', message: String(error) }),
  );
});

process.on('SIGTERM', async () => {
  app.server.closeAllConnections();
  await app.close();
  await store.close();
  process.exit(0);
});
