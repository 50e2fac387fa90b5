import { SpanKind } from '@opentelemetry/api';
import { boundedCode } from './bounded-values.js';
import type { TurnRef } from './tracing.js';

export type SpanName =
  | 'diosc.turn'
  | 'diosc.model_step'
  | 'diosc.tool_call'
  | 'diosc.interrupt_wait'
  | 'diosc.consensus_wait'
  | 'diosc.mcp_call';

export const KIND: Record<SpanName, SpanKind> = {
  'diosc.turn': SpanKind.INTERNAL,
  'diosc.model_step': SpanKind.CLIENT,
  'diosc.tool_call': SpanKind.INTERNAL,
  'diosc.interrupt_wait': SpanKind.INTERNAL,
  'diosc.consensus_wait': SpanKind.INTERNAL,
  'diosc.mcp_call': SpanKind.SERVER,
};

/** Every span's resource: the one attribute a backend groups the hub's spans by. */
export const SERVICE_NAME = 'diosc';

/** A random 32-bit word: span and trace ids are made of them, as the SDK's own id generator does. */
const randomWord = () => (Math.random() * 0x1_0000_0000) >>> 0;

/**
 * One span as the tracer reads it back from its journal (span-tracing.ts): a few fields, set in
 * place. Its OpenTelemetry shape is made only when its batch leaves — encoded as OTLP protobuf
 * (otlp-encoding.ts) or made a `ReadableSpan` for an SDK exporter (readable-span.ts).
 * Every field is set in the constructor: one shape for every record.
 */
export class SpanRecord {
  /** Epoch milliseconds, fractional. */
  endTime = 0;
  /** `ok` or an error code; none for a span ended as abandoned. */
  result: string | undefined = undefined;
  /** How a turn or a wait ended (`done`, `answered`, `approve`, …). */
  outcome: string | undefined = undefined;
  /** The type of the error a model step failed with (never its message). */
  exception: string | undefined = undefined;
  abandoned = false;
  inputTokens = 0;
  outputTokens = 0;
  finishReason: string | undefined = undefined;
  /** A model step's provider and model, as names: never the model object (its closures hold a key). */
  provider: string | undefined = undefined;
  modelId: string | undefined = undefined;
  /**
   * Its span id as two 32-bit words, and — on a span with no parent — its trace id as four; 0 until
   * first needed (its own export, or a child's), as numbers so no string or buffer is made for them.
   */
  spanIdHigh = 0;
  spanIdLow = 0;
  traceId0 = 0;
  traceId1 = 0;
  traceId2 = 0;
  traceId3 = 0;

  constructor(
    readonly name: SpanName,
    /** The turn it belongs to (none for an `/mcp` call). */
    readonly turn: TurnRef | undefined,
    /** The turn's span it is under (none for a turn or an `/mcp` call). */
    readonly parent: SpanRecord | undefined,
    /** The step number, the tool's name or the catalog function. */
    readonly subject: string | number | undefined,
    /** Epoch milliseconds, fractional. */
    readonly startTime: number,
    /** A turn first seen on this instance mid-way (resumed after a restart or a hand-off). */
    readonly resumed = false,
  ) {}
}

/** Gives `record` its span id (and, at a root, its trace id) if it has none yet. */
export function identify(record: SpanRecord): void {
  if (record.spanIdHigh !== 0 || record.spanIdLow !== 0) return;
  record.spanIdHigh = randomWord();
  record.spanIdLow = randomWord() || 1; // never the all-zero id, which means "no span"
  if (record.parent) {
    identify(record.parent);
    return;
  }
  record.traceId0 = randomWord();
  record.traceId1 = randomWord();
  record.traceId2 = randomWord();
  record.traceId3 = randomWord() || 1;
}

/** The span at the root of `record`'s trace: the one whose words are its trace id. */
export const rootOf = (record: SpanRecord): SpanRecord => (record.parent ? rootOf(record.parent) : record);

/** Whether the span ended in failure: its status is then OpenTelemetry's `ERROR`. */
export const failed = (record: SpanRecord) => record.result !== undefined && record.result !== 'ok';

/**
 * Where a span's attributes are written: an object for an SDK exporter, protobuf bytes for OTLP.
 * `attributesOf` calls it in one order for both, so the two agree attribute for attribute.
 */
export interface AttributeSink {
  string(key: string, value: string): void;
  int(key: string, value: number): void;
  bool(key: string, value: boolean): void;
  strings(key: string, value: string): void;
}

/**
 * A span's attributes: ids, names, counts and codes only. OpenTelemetry's GenAI conventions on a
 * model step, so a tracing backend's model views read them.
 */
export function attributesOf(record: SpanRecord, sink: AttributeSink): void {
  if (record.turn) {
    sink.string('diosc.turn.id', record.turn.turnId);
    sink.string('diosc.assistant.id', record.turn.assistantId);
  }
  const subject = record.subject;
  switch (record.name) {
    case 'diosc.turn':
      if (record.resumed) sink.bool('diosc.turn.resumed', true);
      if (record.outcome !== undefined) sink.string('diosc.turn.outcome', record.outcome);
      break;
    case 'diosc.model_step':
      if (typeof subject === 'number') sink.int('diosc.step', subject);
      sink.string('gen_ai.operation.name', 'chat');
      if (record.provider !== undefined) sink.string('gen_ai.provider.name', record.provider);
      if (record.modelId !== undefined) sink.string('gen_ai.request.model', record.modelId);
      if (record.finishReason !== undefined) {
        sink.int('gen_ai.usage.input_tokens', record.inputTokens);
        sink.int('gen_ai.usage.output_tokens', record.outputTokens);
        sink.strings('gen_ai.response.finish_reasons', record.finishReason);
      }
      break;
    case 'diosc.mcp_call':
      if (typeof subject === 'string') sink.string('diosc.mcp.function', subject);
      break;
    default:
      if (typeof subject === 'string') sink.string('diosc.tool', subject);
      if (record.outcome !== undefined) sink.string('diosc.wait.outcome', record.outcome);
  }
  // The end by code only: the status message stays empty (a message could carry outside text).
  if (record.result !== undefined) sink.string('diosc.result.code', boundedCode(record.result));
  if (record.abandoned) sink.bool('diosc.span.abandoned', true);
}

/** A token count as the span may carry it: a whole number from 0, else 0. */
export const tokenCount = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
