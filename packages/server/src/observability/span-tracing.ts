import { isErrorCode } from '@diosc/protocol';
import { isFunctionName } from '@diosc/protocol/validators';
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Tracing, TurnRef, WaitKind } from './tracing.js';

/**
 * Turns (and their waits) open here and end wherever the store says they end — often on another
 * instance, after a restart, or never seen here again. Past this many open at once the oldest is
 * ended as `abandoned`, so a cluster's hand-offs cannot grow this process's memory.
 */
export const MAX_OPEN_SPANS = 10_000;

/** How long an ended step, wait or call waits to be made into a span with the others of its batch. */
export const SPAN_BATCH_MS = 1_000;
/** A batch this large is made at once, whatever its age. */
const SPAN_BATCH_MAX = 1_024;

export interface SpanTracingOptions {
  /** Where ended spans go: an OTLP exporter's batch processor in production, memory in tests. */
  spanProcessors: SpanProcessor[];
  /** `SPAN_BATCH_MS` unless given; 0 makes each span as it ends (what tests read at once). */
  batchMs?: number;
}

/**
 * A model step, wait or call that has ended, not yet made into a span. Only ended spans ever leave
 * the process, so making one when it ends, with the times it had, shows a backend the same span.
 * Made together in a batch, off the round trip, the SDK's span code costs a turn measurably less
 * than starting and ending each span amid the turn's own work (docs/operations.md, "Cost").
 */
interface EndedSpan {
  name: string;
  kind: SpanKind;
  parent: Context;
  attributes: Attributes;
  /** Epoch milliseconds, fractional. */
  startTime: number;
  endTime: number;
  /** The result code (`ok` or an error code), none for a span ended as abandoned; what else the end adds. */
  result?: string;
  endAttributes?: Attributes;
  /** The type of the error a step failed with (never its message). */
  exception?: string;
}

/** A step, wait or call still going on: what its span will start with. */
type OpenSpan = Omit<EndedSpan, 'endTime' | 'result' | 'endAttributes' | 'exception'>;

/** Epoch milliseconds with the monotonic clock's resolution (the SDK takes a number as epoch ms). */
const now = () => performance.timeOrigin + performance.now();

/**
 * OTLP/HTTP with protobuf bodies to a collector's traces endpoint: half the bytes of the JSON
 * exporter, for the same server CPU in the hub benchmark.
 */
export function otlpSpanProcessor(url: string): SpanProcessor {
  return new BatchSpanProcessor(new OTLPTraceExporter({ url }));
}

const code = (value: string) => (value === 'ok' || isErrorCode(value) ? value : 'other');

/** A span's end by code only: the status message stays empty (a message could carry outside text). */
function endWith(span: Span, result: string, attributes: Attributes = {}, endTime?: number): void {
  span.setAttributes({ 'diosc.result.code': code(result), ...attributes });
  if (result !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(endTime);
}

function make(tracer: Tracer, ended: EndedSpan): void {
  const span = tracer.startSpan(
    ended.name,
    { attributes: ended.attributes, kind: ended.kind, startTime: ended.startTime },
    ended.parent,
  );
  if (ended.exception !== undefined) span.recordException({ name: ended.exception }, ended.endTime);
  if (ended.result !== undefined) endWith(span, ended.result, ended.endAttributes, ended.endTime);
  else {
    span.setAttributes(ended.endAttributes ?? {});
    span.end(ended.endTime);
  }
}

function codeOfError(error: unknown, otherwise = 'internal'): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' && isErrorCode(value) ? value : otherwise;
}

/** Spans through a tracer provider of this app's own (never the global one: tests build many apps). */
export function createSpanTracing(options: SpanTracingOptions): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'diosc' }),
    spanProcessors: options.spanProcessors,
  });
  const tracer = provider.getTracer('diosc');
  const batchMs = options.batchMs ?? SPAN_BATCH_MS;
  const turns = new Map<string, { span: Span; context: Context }>();
  const waits = new Map<string, OpenSpan>();
  let batch: EndedSpan[] = [];
  let timer: NodeJS.Timeout | undefined;

  const makeBatch = () => {
    clearTimeout(timer);
    timer = undefined;
    const made = batch;
    batch = [];
    for (const ended of made) make(tracer, ended);
  };
  const ended = (span: EndedSpan) => {
    if (batchMs === 0) return make(tracer, span);
    batch.push(span);
    if (batch.length >= SPAN_BATCH_MAX) makeBatch();
    else if (!timer) {
      timer = setTimeout(makeBatch, batchMs);
      timer.unref();
    }
  };

  const abandonTurn = (entry: { span: Span }) => {
    entry.span.setAttribute('diosc.span.abandoned', true);
    entry.span.end();
  };
  const abandonWait = (wait: OpenSpan) =>
    ended({ ...wait, endTime: now(), endAttributes: { 'diosc.span.abandoned': true } });

  /** Past `MAX_OPEN_SPANS` the oldest entry is ended as abandoned. */
  const remember = <V>(map: Map<string, V>, key: string, entry: V, abandon: (entry: V) => void) => {
    map.set(key, entry);
    if (map.size <= MAX_OPEN_SPANS) return;
    const [oldestKey, oldest] = map.entries().next().value as [string, V];
    map.delete(oldestKey);
    abandon(oldest);
  };

  const attributesOf = (turn: TurnRef): Attributes => ({
    'diosc.turn.id': turn.turnId,
    'diosc.assistant.id': turn.assistantId,
  });

  /** The turn's span here; a turn first seen on this instance (resumed) gets one of its own. */
  const turnContext = (turn: TurnRef): Context => {
    const open = turns.get(turn.turnId);
    if (open) return open.context;
    const span = tracer.startSpan(
      'diosc.turn',
      { root: true, attributes: { ...attributesOf(turn), 'diosc.turn.resumed': true } },
      ROOT_CONTEXT,
    );
    const entry = { span, context: trace.setSpan(ROOT_CONTEXT, span) };
    remember(turns, turn.turnId, entry, abandonTurn);
    return entry.context;
  };

  async function inSpan<T>(
    name: string,
    parent: Context,
    attributes: Attributes,
    run: () => Promise<T>,
    codeOf: (result: T) => string,
    kind: SpanKind = SpanKind.INTERNAL,
  ): Promise<T> {
    const startTime = now();
    let result = 'internal';
    try {
      const value = await run();
      result = codeOf(value);
      return value;
    } catch (error) {
      result = codeOfError(error);
      throw error;
    } finally {
      ended({ name, kind, parent, attributes, startTime, endTime: now(), result });
    }
  }

  return {
    turnBegan(turn) {
      const span = tracer.startSpan(
        'diosc.turn',
        { root: true, attributes: attributesOf(turn) },
        ROOT_CONTEXT,
      );
      remember(turns, turn.turnId, { span, context: trace.setSpan(ROOT_CONTEXT, span) }, abandonTurn);
    },
    turnEnded(turnId, outcome, errorCode) {
      const open = turns.get(turnId);
      if (!open) return;
      turns.delete(turnId);
      endWith(open.span, outcome === 'failed' ? (errorCode ?? 'internal') : 'ok', {
        'diosc.turn.outcome': outcome,
      });
    },
    async modelStep(turn, step, model, run) {
      const span = {
        name: 'diosc.model_step',
        kind: SpanKind.CLIENT,
        parent: turnContext(turn),
        attributes: {
          ...attributesOf(turn),
          'diosc.step': step,
          // OpenTelemetry's GenAI conventions, so a tracing backend's model views read them.
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': model.provider,
          'gen_ai.request.model': model.modelId,
        },
        startTime: now(),
      };
      try {
        const result = await run();
        ended({
          ...span,
          endTime: now(),
          result: 'ok',
          endAttributes: {
            'gen_ai.usage.input_tokens': result.usage.inputTokens,
            'gen_ai.usage.output_tokens': result.usage.outputTokens,
            'gen_ai.response.finish_reasons': [result.finishReason],
          },
        });
        return result;
      } catch (error) {
        // The provider's message may echo a key or the prompt: the span keeps the error's type only.
        const name = (error as { name?: unknown } | null)?.name;
        ended({
          ...span,
          endTime: now(),
          result: codeOfError(error, 'model_failed'),
          exception: typeof name === 'string' ? name.slice(0, 64) : 'Error',
        });
        throw error;
      }
    },
    toolCall(turn, tool, run, codeOf) {
      return inSpan(
        'diosc.tool_call',
        turnContext(turn),
        { ...attributesOf(turn), 'diosc.tool': tool },
        run,
        codeOf,
      );
    },
    waitBegan(turn, callId, kind: WaitKind, tool) {
      remember(
        waits,
        callId,
        {
          name: kind === 'interrupt' ? 'diosc.interrupt_wait' : 'diosc.consensus_wait',
          kind: SpanKind.INTERNAL,
          parent: turnContext(turn),
          attributes: { ...attributesOf(turn), 'diosc.tool': tool },
          startTime: now(),
        },
        abandonWait,
      );
    },
    waitEnded(callId, outcome) {
      const wait = waits.get(callId);
      if (!wait) return;
      waits.delete(callId);
      ended({
        ...wait,
        endTime: now(),
        result:
          outcome === 'timed_out' ? 'interrupt_timed_out' : outcome === 'cancelled' ? 'cancelled' : 'ok',
        endAttributes: { 'diosc.wait.outcome': outcome },
      });
    },
    mcpCall(functionName, run, codeOf) {
      return inSpan(
        'diosc.mcp_call',
        ROOT_CONTEXT,
        { 'diosc.mcp.function': isFunctionName(functionName) ? functionName : 'unknown' },
        run,
        codeOf,
        SpanKind.SERVER,
      );
    },
    async shutdown() {
      // Waits and turns this process never saw end: they end with it, marked so a reader knows.
      for (const wait of waits.values()) abandonWait(wait);
      for (const turn of turns.values()) abandonTurn(turn);
      waits.clear();
      turns.clear();
      makeBatch();
      await provider.shutdown();
    },
  };
}
