import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { OtlpSpanEncoder } from '../../src/observability/otlp-encoding.js';
import { toReadableSpan } from '../../src/observability/readable-span.js';
import { SpanRecord } from '../../src/observability/span-record.js';

/**
 * The spans a turn and an /mcp call make, with every field a span can carry: a resumed turn, model
 * steps that finished and failed, a tool call, waits that were answered, timed out and abandoned.
 */
function recordsOfATurn(at: number): SpanRecord[] {
  const turn = new SpanRecord(
    'diosc.turn',
    { turnId: 'trn_0f5e3c8a-8d1b-4a57-9d54-1f0a2b3c4d5e', assistantId: 'ast_7c1d2e3f' },
    undefined,
    undefined,
    at,
    true,
  );
  const ref = turn.turn;
  const step = new SpanRecord('diosc.model_step', ref, turn, 1, at + 0.123456);
  step.provider = 'scripted';
  step.modelId = 'scripted-bench';
  step.inputTokens = 1_234_567;
  step.outputTokens = 89;
  step.finishReason = 'tool-calls';
  step.endTime = at + 512.987654;
  step.result = 'ok';
  const failedStep = new SpanRecord('diosc.model_step', ref, turn, 2, at + 600);
  // A model id past 127 bytes: its lengths need two bytes, so the messages around it move along.
  failedStep.provider = 'openai.chat';
  failedStep.modelId = `${'a-very-long-deployment-name-'.repeat(6)}ünïcödé`;
  failedStep.exception = 'APICallError';
  failedStep.endTime = at + 700.5;
  failedStep.result = 'model_failed';
  const tool = new SpanRecord('diosc.tool_call', ref, turn, 'lookup_order', at + 800);
  tool.endTime = at + 801;
  tool.result = 'tool_failed';
  const answered = new SpanRecord('diosc.interrupt_wait', ref, turn, 'highlight_row', at + 900);
  answered.outcome = 'answered';
  answered.endTime = at + 950.000001;
  answered.result = 'ok';
  const timedOut = new SpanRecord('diosc.consensus_wait', ref, turn, 'place_order', at + 1_000);
  timedOut.outcome = 'timed_out';
  timedOut.endTime = at + 61_000;
  timedOut.result = 'interrupt_timed_out';
  const abandoned = new SpanRecord('diosc.interrupt_wait', ref, turn, 'read_page', at + 62_000);
  abandoned.abandoned = true;
  abandoned.endTime = at + 61_999; // a clock that went back: the end is never before the start
  const mcp = new SpanRecord('diosc.mcp_call', undefined, undefined, 'orders.cancel', at + 5);
  mcp.endTime = at + 9.25;
  mcp.result = 'grant_missing';
  turn.outcome = 'failed';
  turn.endTime = at + 62_500;
  turn.result = 'model_failed';
  return [step, failedStep, tool, answered, timedOut, abandoned, mcp, turn];
}

function encode(records: SpanRecord[], encoder = new OtlpSpanEncoder()): Uint8Array {
  for (const record of records) encoder.add(record);
  return encoder.take();
}

/** What OpenTelemetry's own OTLP serializer sends for the same spans, made as the SDK makes them. */
const official = (records: SpanRecord[]) =>
  Buffer.from(ProtobufTraceSerializer.serializeRequest(records.map(toReadableSpan))!);

describe('spans encoded as OTLP protobuf', () => {
  it('are the bytes OpenTelemetry’s OTLP serializer makes of the same spans', () => {
    const records = recordsOfATurn(1_796_000_000_123.456);
    const ours = Buffer.from(encode(records));
    expect(ours.length).toBeGreaterThan(1_000);
    expect(ours.equals(official(records))).toBe(true);
  });

  it('stay the same bytes over a batch whose lengths need three bytes, and in the next batch', () => {
    const encoder = new OtlpSpanEncoder();
    const first = Array.from({ length: 80 }, (_, index) =>
      recordsOfATurn(1_796_000_000_000 + index * 1_000.5),
    ).flat();
    const firstBytes = Buffer.from(encode(first, encoder));
    // 640 spans: well past the encoder's first buffer, and a request longer than 2¹⁴ bytes.
    expect(firstBytes.length).toBeGreaterThan(2 ** 16);
    expect(firstBytes.equals(official(first))).toBe(true);
    // Taking empties the batch; its buffer is reused: the next request holds only the next batch.
    const second = recordsOfATurn(1_800_000_000_000);
    expect(Buffer.from(encode(second, encoder)).equals(official(second))).toBe(true);
  });

  it('give each span its own id, the turn’s trace to its children, and a trace of its own to an /mcp call', () => {
    const records = recordsOfATurn(1_796_000_000_000);
    const spans = records.map(toReadableSpan);
    const turn = spans.at(-1)!;
    const mcp = spans.at(-2)!;
    expect(new Set(spans.map((span) => span.spanContext().spanId)).size).toBe(spans.length);
    for (const span of spans.slice(0, -2)) {
      expect(span.spanContext().traceId).toBe(turn.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    }
    expect(mcp.spanContext().traceId).not.toBe(turn.spanContext().traceId);
    expect(mcp.parentSpanContext).toBeUndefined();
    for (const span of spans) {
      expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.spanContext().spanId).not.toBe('0000000000000000');
    }
  });
});
