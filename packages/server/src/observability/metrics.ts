import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { boundedCode, boundedFunction } from './bounded-values.js';
import type { Telemetry } from './telemetry.js';

/** How many interrupts and approval requests wait for an answer now, across every instance. */
export type WaitingCounts = () => Promise<{ interrupt: number; consensus: number }>;

export interface Metrics {
  telemetry: Telemetry;
  /** The Prometheus text exposition of every metric, runtime ones included. */
  render(): Promise<string>;
  readonly contentType: string;
}

/**
 * Model steps run from well under a second (a scripted or cached model) to minutes (a long
 * completion); browser round trips from milliseconds (a tool answered at once) to the interrupt
 * timeout (a visitor deciding).
 */
const MODEL_STEP_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const ROUND_TRIP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The metric updates a journal entry can be (four slots each: the update, two labels, a value). */
enum Update {
  TurnStarted,
  TurnFinished,
  TurnFailed,
  ModelStep,
  RoundTrip,
  Consensus,
  McpCall,
  StreamsOpen,
  FileStored,
  StoreError,
}

/** How often the Node runtime metrics' event-loop-delay monitor samples the loop (ms). */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Slots the journal holds before it is applied without waiting for a scrape: 4,096 updates. */
const JOURNAL_MAX = 4 * 4_096;

/** A registry of this app's own (never prom-client's global one: tests build many apps per process). */
export function createMetrics(waiting: WaitingCounts): Metrics {
  const registry = new Registry();
  // The event-loop-delay monitor samples every 100 ms, not prom-client's 10: it wakes the process
  // ten times a second instead of a hundred, busy or idle, and still sees every stall of 100 ms or
  // more — the lag alerts (docs/operations.md) fire at 200.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const registers = [registry];
  const turnsStarted = new Counter({
    name: 'diosc_turns_started_total',
    help: 'Turns started by a visitor message.',
    labelNames: ['assistant'],
    registers,
  });
  const turnsFinished = new Counter({
    name: 'diosc_turns_finished_total',
    help: 'Turns that ended with an answer.',
    labelNames: ['assistant'],
    registers,
  });
  const turnsFailed = new Counter({
    name: 'diosc_turns_failed_total',
    help: 'Turns that ended failed, by error code.',
    labelNames: ['assistant', 'code'],
    registers,
  });
  const modelSteps = new Histogram({
    name: 'diosc_model_step_duration_seconds',
    help: 'Wall time of one model step (one streamText call), by outcome.',
    labelNames: ['assistant', 'outcome'],
    buckets: MODEL_STEP_BUCKETS,
    registers,
  });
  const roundTrips = new Histogram({
    name: 'diosc_browser_round_trip_seconds',
    help: 'From an interrupt issued to the page’s answer accepted (store clock).',
    labelNames: ['assistant'],
    buckets: ROUND_TRIP_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'diosc_interrupts_waiting',
    help: 'Browser-tool interrupts and approval requests waiting for an answer, in the whole store.',
    labelNames: ['kind'],
    registers,
    async collect() {
      const counts = await waiting();
      this.set({ kind: 'interrupt' }, counts.interrupt);
      this.set({ kind: 'consensus' }, counts.consensus);
    },
  });
  const consensus = new Counter({
    name: 'diosc_consensus_decisions_total',
    help: 'Approval requests decided, by outcome (approve, edit, reject, timed_out).',
    labelNames: ['assistant', 'outcome'],
    registers,
  });
  const mcpCalls = new Counter({
    name: 'diosc_mcp_calls_total',
    help: '/mcp tools/call requests, by catalog function and result code (ok or the refusal).',
    labelNames: ['function', 'code'],
    registers,
  });
  const streamsOpen = new Gauge({
    name: 'diosc_event_streams_open',
    help: 'Event streams (SSE) open on this instance.',
    registers,
  });
  const filesStored = new Counter({
    name: 'diosc_files_stored_total',
    help: 'Files stored, by source (upload, generated, …).',
    labelNames: ['source'],
    registers,
  });
  const storeErrors = new Counter({
    name: 'diosc_store_errors_total',
    help: 'Store statements that failed (expected unique-key races excluded).',
    registers,
  });

  // Updates wait in a journal and are applied to the metrics together, when a scrape reads them or
  // the journal is full: a turn's path pays for a push, prom-client's label hashing and bucket
  // search run in one warm loop (docs/architecture.md, "Metric updates go through a journal"). A scrape reads every update.
  const journal: (string | number)[] = [];
  const record = (update: Update, a: string, b: string, value: number) => {
    journal.push(update, a, b, value);
    if (journal.length >= JOURNAL_MAX) apply();
  };
  const apply = () => {
    for (let at = 0; at < journal.length; at += 4) {
      const a = journal[at + 1] as string;
      const b = journal[at + 2] as string;
      const value = journal[at + 3] as number;
      switch (journal[at] as Update) {
        case Update.TurnStarted:
          turnsStarted.inc({ assistant: a });
          break;
        case Update.TurnFinished:
          turnsFinished.inc({ assistant: a });
          break;
        case Update.TurnFailed:
          turnsFailed.inc({ assistant: a, code: boundedCode(b) });
          break;
        case Update.ModelStep:
          modelSteps.observe({ assistant: a, outcome: b }, value);
          break;
        case Update.RoundTrip:
          roundTrips.observe({ assistant: a }, value);
          break;
        case Update.Consensus:
          consensus.inc({ assistant: a, outcome: b });
          break;
        case Update.McpCall:
          mcpCalls.inc({ function: boundedFunction(a), code: boundedCode(b) });
          break;
        case Update.StreamsOpen:
          streamsOpen.inc(value);
          break;
        case Update.FileStored:
          filesStored.inc({ source: a });
          break;
        case Update.StoreError:
          storeErrors.inc();
          break;
      }
    }
    journal.length = 0;
  };

  const telemetry: Telemetry = {
    turnStarted: (assistant) => record(Update.TurnStarted, assistant, '', 0),
    turnFinished: (assistant) => record(Update.TurnFinished, assistant, '', 0),
    turnFailed: (assistant, code) => record(Update.TurnFailed, assistant, code, 0),
    modelStep(assistant) {
      const startedAt = performance.now();
      return (outcome) =>
        record(Update.ModelStep, assistant, outcome, (performance.now() - startedAt) / 1000);
    },
    browserRoundTrip: (assistant, seconds) => record(Update.RoundTrip, assistant, '', Math.max(0, seconds)),
    consensusDecided: (assistant, outcome) => record(Update.Consensus, assistant, outcome, 0),
    mcpCall: (name, code) => record(Update.McpCall, name, code, 0),
    eventStreamOpened() {
      record(Update.StreamsOpen, '', '', 1);
      let open = true;
      return () => {
        if (open) record(Update.StreamsOpen, '', '', -1);
        open = false;
      };
    },
    fileStored: (source) => record(Update.FileStored, source, '', 0),
    storeError: () => record(Update.StoreError, '', '', 0),
  };
  const render = () => {
    apply();
    return registry.metrics();
  };
  return { telemetry, render, contentType: registry.contentType };
}
