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
/**
 * How long an entry waits in the journal before it is read back, and how many slots are read at
 * once whatever their age. Short: what the journal holds lives in V8's young generation, where
 * every garbage collection copies it; once read, an ended span is bytes outside the heap.
 */
const JOURNAL_READ_MS = 1_000;
const JOURNAL_MAX = 1_024;

/**
 * What a journal entry records: the event and its time, then its operands (how many and which
 * depends on the event; `readJournal` reads them back in the same order).
 */
enum Entry {
  /** turnId, assistantId */
  TurnBegan,
  /** turnId, outcome, error code */
  TurnEnded,
  /** handle, turn, step, provider, model id */
  StepBegan,
  /** handle, input tokens, output tokens, finish reason */
  StepEnded,
  /** handle, the error's type, code */
  StepFailed,
  /** turn, call id, wait kind, tool */
  WaitBegan,
  /** call id, outcome */
  WaitEnded,
  /** handle, span name, turn (or undefined), subject */
  CallBegan,
  /** handle, result code */
  CallEnded,
}

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

/** The open record under `key`, no longer open: an end read back from the journal closes it. */
function takeOpen<K>(open: Map<K, SpanRecord>, key: K): SpanRecord | undefined {
  const record = open.get(key);
  if (record) open.delete(key);
  return record;
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
 * Spans journaled while the work runs and made only later, in warm loops: a turn's path pushes an
 * entry — the event, its time and a few ids — onto one array; every `JOURNAL_READ_MS` (or when the
 * journal is full) the entries are read back into span records (span-record.ts) and each ended
 * span is encoded as OTLP protobuf into its batch (otlp-encoding.ts) or kept for an SDK exporter;
 * every `SPAN_EXPORT_MS` (or at `SPAN_BATCH_MAX` spans) the batch is sent. Only ended spans ever
 * leave a process, so a backend sees what the SDK's tracer would have sent, with the times the work
 * had. Neither the SDK's tracer nor even a record of our own is made amid a round trip: code run
 * there, cold, between the request's own work, costs several times what it costs in a loop
 * (docs/architecture.md, "Spans are journaled"). Never the global provider or context: tests build
 * many apps.
 */
export function createSpanTracing(options: SpanTracingOptions): Tracing {
  const senders = options.spanSenders ?? [];
  const exporters = options.spanExporters ?? [];
  const batchMs = options.batchMs ?? SPAN_EXPORT_MS;
  const ratio = options.sampleRatio ?? 1;
  const sampled = (turn: TurnRef) => ratio >= 1 || sampledTurn(turn.turnId, ratio);
  const encoder = new OtlpSpanEncoder();
  let journal: unknown[] = [];
  let nextHandle = 1;
  let timer: NodeJS.Timeout | undefined;
  /** After `shutdown`: a late entry is dropped, its senders are gone. */
  let closed = false;

  // Read back from the journal: what is open, and the ended spans waiting for their batch — as
  // OTLP bytes in the encoder, and as records for SDK exporters.
  const turns = new Map<string, SpanRecord>();
  const waits = new Map<string, SpanRecord>();
  const handles = new Map<number, SpanRecord>();
  let kept: SpanRecord[] = [];
  let pending = 0;
  /** When the oldest span of the batch ended (epoch ms). */
  let batchStartedAt = 0;

  const exportBatch = () => {
    if (pending === 0) return;
    // A collector that refuses or is down loses the batch, as a batch span processor's would.
    if (senders.length > 0) {
      const spans = { count: pending, bytes: encoder.take() };
      for (const sender of senders) sender.send(spans, () => {});
    }
    if (exporters.length > 0) {
      const spans = kept.map(toReadableSpan);
      kept = [];
      for (const exporter of exporters) exporter.export(spans, () => {});
    }
    pending = 0;
  };
  const ended = (record: SpanRecord, endTime: number, result: string | undefined) => {
    record.endTime = endTime;
    record.result = result;
    if (senders.length > 0) encoder.add(record);
    if (exporters.length > 0) kept.push(record);
    if (pending++ === 0) batchStartedAt = endTime;
    if (pending === SPAN_BATCH_MAX) exportBatch();
  };
  const abandon = (record: SpanRecord, at: number) => {
    record.abandoned = true;
    ended(record, at, undefined);
  };

  /** Past `MAX_OPEN_SPANS` the oldest entry is ended as abandoned. */
  const remember = (map: Map<string, SpanRecord>, key: string, record: SpanRecord) => {
    map.set(key, record);
    if (map.size <= MAX_OPEN_SPANS) return;
    const [oldestKey, oldest] = map.entries().next().value as [string, SpanRecord];
    map.delete(oldestKey);
    abandon(oldest, record.startTime);
  };

  /** The turn's span here; a turn first seen on this instance (resumed) gets one of its own. */
  const turnOf = (turn: TurnRef, at: number): SpanRecord => {
    const open = turns.get(turn.turnId);
    if (open) return open;
    const record = new SpanRecord('diosc.turn', turn, undefined, undefined, at, true);
    remember(turns, turn.turnId, record);
    return record;
  };

  /** The journal read back in order: records opened, ended and batched; then the batch sent. */
  const readJournal = () => {
    clearTimeout(timer);
    timer = undefined;
    const entries = journal;
    journal = [];
    let at = 0;
    while (at < entries.length) {
      const entry = entries[at] as Entry;
      const time = entries[at + 1] as number;
      at += 2;
      switch (entry) {
        case Entry.TurnBegan: {
          const turn = { turnId: entries[at] as string, assistantId: entries[at + 1] as string };
          remember(turns, turn.turnId, new SpanRecord('diosc.turn', turn, undefined, undefined, time));
          at += 2;
          break;
        }
        case Entry.TurnEnded: {
          const record = takeOpen(turns, entries[at] as string);
          if (record) {
            const outcome = entries[at + 1] as string;
            record.outcome = outcome;
            ended(record, time, outcome === 'failed' ? ((entries[at + 2] as string) ?? 'internal') : 'ok');
          }
          at += 3;
          break;
        }
        case Entry.StepBegan: {
          const turn = entries[at + 1] as TurnRef;
          const record = new SpanRecord(
            'diosc.model_step',
            turn,
            turnOf(turn, time),
            entries[at + 2] as number,
            time,
          );
          record.provider = entries[at + 3] as string;
          record.modelId = entries[at + 4] as string;
          handles.set(entries[at] as number, record);
          at += 5;
          break;
        }
        case Entry.StepEnded: {
          const record = takeOpen(handles, entries[at] as number);
          if (record) {
            record.inputTokens = entries[at + 1] as number;
            record.outputTokens = entries[at + 2] as number;
            record.finishReason = entries[at + 3] as string;
            ended(record, time, 'ok');
          }
          at += 4;
          break;
        }
        case Entry.StepFailed: {
          const record = takeOpen(handles, entries[at] as number);
          if (record) {
            record.exception = entries[at + 1] as string;
            ended(record, time, entries[at + 2] as string);
          }
          at += 3;
          break;
        }
        case Entry.WaitBegan: {
          const turn = entries[at] as TurnRef;
          const name = entries[at + 2] === 'interrupt' ? 'diosc.interrupt_wait' : 'diosc.consensus_wait';
          const record = new SpanRecord(name, turn, turnOf(turn, time), entries[at + 3] as string, time);
          remember(waits, entries[at + 1] as string, record);
          at += 4;
          break;
        }
        case Entry.WaitEnded: {
          const record = takeOpen(waits, entries[at] as string);
          if (record) {
            const outcome = entries[at + 1] as string;
            record.outcome = outcome;
            ended(
              record,
              time,
              outcome === 'timed_out' ? 'interrupt_timed_out' : outcome === 'cancelled' ? 'cancelled' : 'ok',
            );
          }
          at += 2;
          break;
        }
        case Entry.CallBegan: {
          const turn = entries[at + 2] as TurnRef | undefined;
          const record = new SpanRecord(
            entries[at + 1] as SpanName,
            turn,
            turn && turnOf(turn, time),
            entries[at + 3] as string,
            time,
          );
          handles.set(entries[at] as number, record);
          at += 4;
          break;
        }
        case Entry.CallEnded: {
          const record = takeOpen(handles, entries[at] as number);
          if (record) {
            ended(record, time, entries[at + 1] as string);
          }
          at += 2;
          break;
        }
      }
    }
    if (pending > 0 && now() - batchStartedAt >= batchMs) exportBatch();
    // A batch not yet due is looked at again, whether or not more entries come.
    if (pending > 0) schedule(Math.min(JOURNAL_READ_MS, batchMs));
  };

  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(readJournal, ms);
    timer.unref();
  };

  /** Called after every push: the journal is read within `JOURNAL_READ_MS`, or at once when it is full. */
  const journaled = () => {
    if (closed) {
      journal.length = 0;
      return;
    }
    if (batchMs === 0) return readJournal();
    if (journal.length >= JOURNAL_MAX) {
      // A full journal is read at once, but after the request that filled it, not in its middle.
      clearTimeout(timer);
      timer = undefined;
      schedule(0);
    } else schedule(Math.min(JOURNAL_READ_MS, batchMs));
  };

  async function inSpan<T>(
    name: SpanName,
    turn: TurnRef | undefined,
    subject: string,
    run: () => Promise<T>,
    codeOf: (result: T) => string,
  ): Promise<T> {
    const handle = nextHandle++;
    journal.push(Entry.CallBegan, now(), handle, name, turn, subject);
    journaled();
    let result = 'internal';
    try {
      const value = await run();
      result = codeOf(value);
      return value;
    } catch (error) {
      result = codeOfError(error);
      throw error;
    } finally {
      journal.push(Entry.CallEnded, now(), handle, result);
      journaled();
    }
  }

  return {
    turnBegan(turn) {
      if (!sampled(turn)) return;
      journal.push(Entry.TurnBegan, now(), turn.turnId, turn.assistantId);
      journaled();
    },
    turnEnded(turnId, outcome, errorCode) {
      journal.push(Entry.TurnEnded, now(), turnId, outcome, errorCode);
      journaled();
    },
    modelStepBegan(turn, step, model) {
      if (!sampled(turn)) return undefined;
      const handle = nextHandle++;
      // The model as its names: never the model object (its closures hold a key).
      journal.push(Entry.StepBegan, now(), handle, turn, step, model.provider, model.modelId);
      journaled();
      return handle;
    },
    modelStepEnded(span, outcome) {
      if (span === undefined) return;
      journal.push(
        Entry.StepEnded,
        now(),
        span,
        tokenCount(outcome.usage.inputTokens),
        tokenCount(outcome.usage.outputTokens),
        outcome.finishReason,
      );
      journaled();
    },
    modelStepFailed(span, error) {
      if (span === undefined) return;
      // The provider's message may echo a key or the prompt: the span keeps the error's type only.
      const name = (error as { name?: unknown } | null)?.name;
      const exception = typeof name === 'string' ? name.slice(0, 64) : 'Error';
      journal.push(Entry.StepFailed, now(), span, exception, codeOfError(error, 'model_failed'));
      journaled();
    },
    toolCall(turn, tool, run, codeOf) {
      if (!sampled(turn)) return run();
      return inSpan('diosc.tool_call', turn, tool, run, codeOf);
    },
    waitBegan(turn, callId, kind: WaitKind, tool) {
      if (!sampled(turn)) return;
      journal.push(Entry.WaitBegan, now(), turn, callId, kind, tool);
      journaled();
    },
    waitEnded(callId, outcome) {
      journal.push(Entry.WaitEnded, now(), callId, outcome);
      journaled();
    },
    mcpCall(functionName, run, codeOf) {
      // An /mcp call has no turn: each is its own trace, kept at the ratio by chance.
      if (ratio < 1 && Math.random() >= ratio) return run();
      return inSpan('diosc.mcp_call', undefined, boundedFunction(functionName), run, codeOf);
    },
    async shutdown() {
      closed = true;
      readJournal();
      clearTimeout(timer);
      timer = undefined;
      // Waits and turns this process never saw end: they end with it, marked so a reader knows.
      const at = now();
      for (const wait of waits.values()) abandon(wait, at);
      for (const turn of turns.values()) abandon(turn, at);
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
