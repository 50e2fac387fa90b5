import { type Attributes, type SpanContext, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { RandomIdGenerator, type ReadableSpan, type TimedEvent } from '@opentelemetry/sdk-trace-base';
import { boundedCode } from './bounded-values.js';
import type { TurnRef } from './tracing.js';

export type SpanName =
  | 'diosc.turn'
  | 'diosc.model_step'
  | 'diosc.tool_call'
  | 'diosc.interrupt_wait'
  | 'diosc.consensus_wait'
  | 'diosc.mcp_call';

const KIND: Record<SpanName, SpanKind> = {
  'diosc.turn': SpanKind.INTERNAL,
  'diosc.model_step': SpanKind.CLIENT,
  'diosc.tool_call': SpanKind.INTERNAL,
  'diosc.interrupt_wait': SpanKind.INTERNAL,
  'diosc.consensus_wait': SpanKind.INTERNAL,
  'diosc.mcp_call': SpanKind.SERVER,
};

/**
 * One span as the hub records it while a turn runs: a few fields set in place, nothing else. Its
 * ids, attributes and OpenTelemetry shape are made only when its batch is exported (`toReadableSpan`),
 * so the turn's own path pays for one small object per span (docs/operations.md, "Cost").
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
  /** Its trace and span ids, made when first needed: its own export, or a child's. */
  context: SpanContext | undefined = undefined;

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

const ids = new RandomIdGenerator();

function contextOf(record: SpanRecord): SpanContext {
  if (!record.context) {
    const traceId = record.parent ? contextOf(record.parent).traceId : ids.generateTraceId();
    record.context = { traceId, spanId: ids.generateSpanId(), traceFlags: TraceFlags.SAMPLED };
  }
  return record.context;
}

function attributesOf(record: SpanRecord): Attributes {
  const attributes: Attributes = {};
  if (record.turn) {
    attributes['diosc.turn.id'] = record.turn.turnId;
    attributes['diosc.assistant.id'] = record.turn.assistantId;
  }
  switch (record.name) {
    case 'diosc.turn':
      if (record.resumed) attributes['diosc.turn.resumed'] = true;
      if (record.outcome !== undefined) attributes['diosc.turn.outcome'] = record.outcome;
      break;
    case 'diosc.model_step':
      attributes['diosc.step'] = record.subject;
      // OpenTelemetry's GenAI conventions, so a tracing backend's model views read them.
      attributes['gen_ai.operation.name'] = 'chat';
      attributes['gen_ai.provider.name'] = record.provider;
      attributes['gen_ai.request.model'] = record.modelId;
      if (record.finishReason !== undefined) {
        attributes['gen_ai.usage.input_tokens'] = record.inputTokens;
        attributes['gen_ai.usage.output_tokens'] = record.outputTokens;
        attributes['gen_ai.response.finish_reasons'] = [record.finishReason];
      }
      break;
    case 'diosc.mcp_call':
      attributes['diosc.mcp.function'] = record.subject;
      break;
    default:
      attributes['diosc.tool'] = record.subject;
      if (record.outcome !== undefined) attributes['diosc.wait.outcome'] = record.outcome;
  }
  // The end by code only: the status message stays empty (a message could carry outside text).
  if (record.result !== undefined) attributes['diosc.result.code'] = boundedCode(record.result);
  if (record.abandoned) attributes['diosc.span.abandoned'] = true;
  return attributes;
}

// Shared by every span of a batch (exporters only read them): fewer objects made per span.
const NONE: never[] = [];
const UNSET = { code: SpanStatusCode.UNSET };
const FAILED = { code: SpanStatusCode.ERROR };

/** The span a backend receives: what the SDK's own spans carry, built from the record at export. */
export function toReadableSpan(
  record: SpanRecord,
  resource: Resource,
  scope: ReadableSpan['instrumentationScope'],
): ReadableSpan {
  const context = contextOf(record);
  const startTime = millisToHrTime(record.startTime);
  const endTime = millisToHrTime(Math.max(record.startTime, record.endTime));
  const events: TimedEvent[] =
    record.exception === undefined
      ? NONE
      : [
          {
            name: 'exception',
            attributes: { 'exception.type': record.exception },
            time: endTime,
            droppedAttributesCount: 0,
          },
        ];
  const failed = record.result !== undefined && record.result !== 'ok';
  return {
    name: record.name,
    kind: KIND[record.name],
    spanContext: () => context,
    parentSpanContext: record.parent ? contextOf(record.parent) : undefined,
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status: failed ? FAILED : UNSET,
    attributes: attributesOf(record),
    links: NONE,
    events,
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
