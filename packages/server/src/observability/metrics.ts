import { isErrorCode } from '@diosc/protocol';
import { isFunctionName } from '@diosc/protocol/validators';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
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

/**
 * Label values are the store's assistant ids, the protocol's error codes and the catalog's function
 * names — sets an owner or the code bounds. Anything else a caller could make up (an unknown tool
 * name, a provider's own error string) collapses into one value, so no request can grow a series.
 */
function boundedCode(code: string): string {
  return code === 'ok' || isErrorCode(code) ? code : 'other';
}

function boundedFunction(name: string): string {
  return isFunctionName(name) ? name : 'unknown';
}

/** A registry of this app's own (never prom-client's global one: tests build many apps per process). */
export function createMetrics(waiting: WaitingCounts): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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

  const telemetry: Telemetry = {
    turnStarted: (assistant) => turnsStarted.inc({ assistant }),
    turnFinished: (assistant) => turnsFinished.inc({ assistant }),
    turnFailed: (assistant, code) => turnsFailed.inc({ assistant, code: boundedCode(code) }),
    modelStep(assistant) {
      const end = modelSteps.startTimer({ assistant });
      return (outcome) => {
        end({ outcome });
      };
    },
    browserRoundTrip: (assistant, seconds) => roundTrips.observe({ assistant }, Math.max(0, seconds)),
    consensusDecided: (assistant, outcome) => consensus.inc({ assistant, outcome }),
    mcpCall: (name, code) => mcpCalls.inc({ function: boundedFunction(name), code: boundedCode(code) }),
    eventStreamOpened() {
      streamsOpen.inc();
      let open = true;
      return () => {
        if (open) streamsOpen.dec();
        open = false;
      };
    },
    fileStored: (source) => filesStored.inc({ source }),
    storeError: () => storeErrors.inc(),
  };
  return { telemetry, render: () => registry.metrics(), contentType: registry.contentType };
}
