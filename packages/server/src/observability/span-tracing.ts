import { isErrorCode } from '@diosc/protocol';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { boundedFunction } from './bounded-values.js';
import { OtlpSpanEncoder } from './otlp-encoding.js';
import type { SpanSender } from './otlp-sender.js';
import { toReadableSpan } from './readable-span.js';
import { type SpanName, SpanRecord, tokenCount } from './span-record.js';
import type { Tracing, TurnRef, WaitKind } from './tracing.js';

/**
 * Turns (and their waits) open here and end wherever the store says they end — often on another
 * instance, after a restart, or never seen here again. Past this many open at once the oldest is
 * ended as `abandoned`, so a cluster's hand-offs cannot grow this process's memory.
 */
export const MAX_OPEN_SPANS = 10_000;

/**
 * How long an ended span waits to be exported with the others of its batch: OpenTelemetry's
 * default schedule delay for a batch span processor (`OTEL_BSP_SCHEDULE_DELAY`).
 */
export const SPAN_EXPORT_MS = 5_000;
/** A batch this large is exported at once, whatever its age (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`). */
const SPAN_BATCH_MAX = 512;

export interface SpanTracingOptions {
  /** OTLP senders: each batch encoded as protobuf and sent (production: `otlpSpanSender`). */
  spanSenders?: SpanSender[];
  /** SDK exporters, given OpenTelemetry's `ReadableSpan`s (tests: an in-memory one). */
  spanExporters?: SpanExporter[];
  /** `SPAN_EXPORT_MS` unless given; 0 exports each span as it ends (what tests read at once). */
  batchMs?: number;
  /** The share of turns and `/mcp` calls traced (`DIOSC_TRACES_SAMPLE_RATIO`); 1 unless given. */
  sampleRatio?: number;
}

/**
 * Whether a turn is traced at `ratio`: decided by its id (FNV-1a over it, as a fraction of 2³²), so
 * every instance that runs part of the turn decides the same and a turn is kept or dropped whole.
 */
export function sampledTurn(turnId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  let hash = 0x811c9dc5;
  for (let index = 0; index < turnId.length; index++) {
    hash ^= turnId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32 < ratio;
}

const timeOrigin = performance.timeOrigin;
/** Epoch milliseconds with the monotonic clock's resolution. */
const now = () => timeOrigin + performance.now();

function codeOfError(error: unknown, otherwise = 'internal'): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' && isErrorCode(value) ? value : otherwise;
}

/**
 * Spans recorded as small objects while the work runs (span-record.ts) and, when their batch goes,
 * encoded as OTLP protobuf in one pass (otlp-encoding.ts) — or made `ReadableSpan`s for an SDK
 * exporter. Encoding a batch together runs one warm loop, where a span encoded as it ended would
 * run the encoder cold amid a request's work. Only ended spans ever leave a process, so a backend sees what
 * the SDK's tracer would have sent; the tracer itself is not used, since starting and ending its
 * spans amid a turn's work is most of what traces cost a round trip (docs/architecture.md, "Spans
 * are recorded as small objects"). Never the global provider or context: tests build many apps.
 */
export function createSpanTracing(options: SpanTracingOptions): Tracing {
  const senders = options.spanSenders ?? [];
  const exporters = options.spanExporters ?? [];
  const batchMs = options.batchMs ?? SPAN_EXPORT_MS;
  const ratio = options.sampleRatio ?? 1;
  const sampled = (turn: TurnRef) => sampledTurn(turn.turnId, ratio);
  const turns = new Map<string, SpanRecord>();
  const waits = new Map<string, SpanRecord>();
  const encoder = new OtlpSpanEncoder();
  let batch: SpanRecord[] = [];
  let timer: NodeJS.Timeout | undefined;

  const exportBatch = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0) return;
    const records = batch;
    batch = [];
    // A collector that refuses or is down loses the batch, as a batch span processor's would.
    if (senders.length > 0) {
      const spans = { count: records.length, bytes: encoder.encode(records) };
      for (const sender of senders) sender.send(spans, () => {});
    }
    if (exporters.length > 0) {
      const spans = records.map(toReadableSpan);
      for (const exporter of exporters) exporter.export(spans, () => {});
    }
  };
  const ended = (record: SpanRecord, endTime: number, result: string | undefined) => {
    record.endTime = endTime;
    record.result = result;
    batch.push(record);
    if (batchMs === 0) return exportBatch();
    if (batch.length === SPAN_BATCH_MAX) {
      // A full batch goes at once, but after the request that filled it, not in its middle.
      clearTimeout(timer);
      timer = setTimeout(exportBatch, 0);
      timer.unref();
    } else if (!timer) {
      timer = setTimeout(exportBatch, batchMs);
      timer.unref();
    }
  };
  const abandon = (record: SpanRecord) => {
    record.abandoned = true;
    ended(record, now(), undefined);
  };

  /** Past `MAX_OPEN_SPANS` the oldest entry is ended as abandoned. */
  const remember = (map: Map<string, SpanRecord>, key: string, record: SpanRecord) => {
    map.set(key, record);
    if (map.size <= MAX_OPEN_SPANS) return;
    const [oldestKey, oldest] = map.entries().next().value as [string, SpanRecord];
    map.delete(oldestKey);
    abandon(oldest);
  };

  /** The turn's span here; a turn first seen on this instance (resumed) gets one of its own. */
  const turnOf = (turn: TurnRef): SpanRecord => {
    const open = turns.get(turn.turnId);
    if (open) return open;
    const record = new SpanRecord('diosc.turn', turn, undefined, undefined, now(), true);
    remember(turns, turn.turnId, record);
    return record;
  };

  async function inSpan<T>(
    name: SpanName,
    turn: TurnRef | undefined,
    subject: string,
    run: () => Promise<T>,
    codeOf: (result: T) => string,
  ): Promise<T> {
    const record = new SpanRecord(name, turn, turn && turnOf(turn), subject, now());
    let result = 'internal';
    try {
      const value = await run();
      result = codeOf(value);
      return value;
    } catch (error) {
      result = codeOfError(error);
      throw error;
    } finally {
      ended(record, now(), result);
    }
  }

  return {
    turnBegan(turn) {
      if (!sampled(turn)) return;
      remember(turns, turn.turnId, new SpanRecord('diosc.turn', turn, undefined, undefined, now()));
    },
    turnEnded(turnId, outcome, errorCode) {
      const record = turns.get(turnId);
      if (!record) return;
      turns.delete(turnId);
      record.outcome = outcome;
      ended(record, now(), outcome === 'failed' ? (errorCode ?? 'internal') : 'ok');
    },
    modelStepBegan(turn, step, model) {
      if (!sampled(turn)) return undefined;
      const record = new SpanRecord('diosc.model_step', turn, turnOf(turn), step, now());
      record.provider = model.provider;
      record.modelId = model.modelId;
      return record;
    },
    modelStepEnded(span, outcome) {
      if (!(span instanceof SpanRecord)) return;
      span.inputTokens = tokenCount(outcome.usage.inputTokens);
      span.outputTokens = tokenCount(outcome.usage.outputTokens);
      span.finishReason = outcome.finishReason;
      ended(span, now(), 'ok');
    },
    modelStepFailed(span, error) {
      if (!(span instanceof SpanRecord)) return;
      // The provider's message may echo a key or the prompt: the span keeps the error's type only.
      const name = (error as { name?: unknown } | null)?.name;
      span.exception = typeof name === 'string' ? name.slice(0, 64) : 'Error';
      ended(span, now(), codeOfError(error, 'model_failed'));
    },
    toolCall(turn, tool, run, codeOf) {
      if (!sampled(turn)) return run();
      return inSpan('diosc.tool_call', turn, tool, run, codeOf);
    },
    waitBegan(turn, callId, kind: WaitKind, tool) {
      if (!sampled(turn)) return;
      const name = kind === 'interrupt' ? 'diosc.interrupt_wait' : 'diosc.consensus_wait';
      remember(waits, callId, new SpanRecord(name, turn, turnOf(turn), tool, now()));
    },
    waitEnded(callId, outcome) {
      const record = waits.get(callId);
      if (!record) return;
      waits.delete(callId);
      record.outcome = outcome;
      ended(
        record,
        now(),
        outcome === 'timed_out' ? 'interrupt_timed_out' : outcome === 'cancelled' ? 'cancelled' : 'ok',
      );
    },
    mcpCall(functionName, run, codeOf) {
      // An /mcp call has no turn: each is its own trace, kept at the ratio by chance.
      if (ratio < 1 && Math.random() >= ratio) return run();
      return inSpan('diosc.mcp_call', undefined, boundedFunction(functionName), run, codeOf);
    },
    async shutdown() {
      // Waits and turns this process never saw end: they end with it, marked so a reader knows.
      for (const wait of waits.values()) abandon(wait);
      for (const turn of turns.values()) abandon(turn);
      waits.clear();
      turns.clear();
      exportBatch();
      for (const sender of senders) {
        await sender.forceFlush();
        await sender.shutdown();
      }
      for (const exporter of exporters) {
        await exporter.forceFlush?.();
        await exporter.shutdown();
      }
    },
  };
}
