import { isErrorCode } from '@diosc/protocol';
import { isFunctionName } from '@diosc/protocol/validators';
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
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

export interface SpanTracingOptions {
  /** Where ended spans go: an OTLP exporter's batch processor in production, memory in tests. */
  spanProcessors: SpanProcessor[];
}

/**
 * OTLP/HTTP with protobuf bodies to a collector's traces endpoint: half the bytes of the JSON
 * exporter, and in the hub benchmark about two points less server CPU per round trip.
 */
export function otlpSpanProcessor(url: string): SpanProcessor {
  return new BatchSpanProcessor(new OTLPTraceExporter({ url }));
}

const code = (value: string) => (value === 'ok' || isErrorCode(value) ? value : 'other');

/** A span's end by code only: the status message stays empty (a message could carry outside text). */
function endWith(span: Span, result: string, attributes: Attributes = {}): void {
  span.setAttributes({ 'diosc.result.code': code(result), ...attributes });
  if (result !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function codeOfError(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' && isErrorCode(value) ? value : 'internal';
}

/**
 * The tracer the AI SDK gets for one model step. It opens its spans under `context.active()`, and
 * a context manager that would make that the step (AsyncLocalStorage) puts a hook on every promise
 * of the process: on Node 20 that made a browser round trip cost about a quarter more server CPU
 * (the hub benchmark, before this), five times the budget. So this tracer parents each span itself: under the
 * innermost of its spans still open (`ai.streamText.doStream` under `ai.streamText`), else the
 * step.
 *
 * It also scrubs: the AI SDK records a failed call's message and stack on its span
 * (`recordException`, `setStatus`), and a provider's message may echo a key or the prompt. Its
 * spans keep the exception's type and the error status, never the text.
 */
function stepTracer(tracer: Tracer, step: Context): Tracer {
  const open: Span[] = [];
  const wrap = (span: Span): Span => {
    open.push(span);
    return new Proxy(span, {
      get(target, property) {
        if (property === 'recordException')
          return (exception: unknown) => {
            const name = (exception as { name?: unknown } | null)?.name;
            target.recordException({ name: typeof name === 'string' ? name : 'Error' });
          };
        if (property === 'setStatus')
          return (status: { code: SpanStatusCode }) => target.setStatus({ code: status.code });
        if (property === 'end')
          return (endTime?: number) => {
            open.splice(open.indexOf(target), 1);
            target.end(endTime);
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  const parent = () => {
    const innermost = open.at(-1);
    return innermost ? trace.setSpan(step, innermost) : step;
  };
  return {
    startSpan: (name, options) => wrap(tracer.startSpan(name, options, parent())),
    startActiveSpan(name: string, ...rest: unknown[]) {
      const fn = rest.pop() as (span: Span) => unknown;
      const options = (rest[0] ?? {}) as SpanOptions;
      return fn(wrap(tracer.startSpan(name, options, parent())));
    },
  } as Tracer;
}

/** Spans through a tracer provider of this app's own (never the global one: tests build many apps). */
export function createSpanTracing(options: SpanTracingOptions): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'diosc' }),
    spanProcessors: options.spanProcessors,
  });
  const tracer = provider.getTracer('diosc');
  const turns = new Map<string, { span: Span; context: Context }>();
  const waits = new Map<string, { span: Span }>();

  const remember = <V extends { span: Span }>(map: Map<string, V>, key: string, entry: V) => {
    map.set(key, entry);
    if (map.size <= MAX_OPEN_SPANS) return;
    const [oldestKey, oldest] = map.entries().next().value as [string, V];
    map.delete(oldestKey);
    oldest.span.setAttribute('diosc.span.abandoned', true);
    oldest.span.end();
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
    remember(turns, turn.turnId, entry);
    return entry.context;
  };

  async function inSpan<T>(
    name: string,
    parent: Context,
    attributes: Attributes,
    run: (ctx: Context) => Promise<T>,
    codeOf: (result: T) => string,
    kind: SpanKind = SpanKind.INTERNAL,
  ): Promise<T> {
    const span = tracer.startSpan(name, { attributes, kind }, parent);
    const ctx = trace.setSpan(parent, span);
    try {
      const result = await run(ctx);
      endWith(span, codeOf(result));
      return result;
    } catch (error) {
      endWith(span, codeOfError(error));
      throw error;
    }
  }

  return {
    turnBegan(turn) {
      const span = tracer.startSpan(
        'diosc.turn',
        { root: true, attributes: attributesOf(turn) },
        ROOT_CONTEXT,
      );
      remember(turns, turn.turnId, { span, context: trace.setSpan(ROOT_CONTEXT, span) });
    },
    turnEnded(turnId, outcome, errorCode) {
      const open = turns.get(turnId);
      if (!open) return;
      turns.delete(turnId);
      endWith(open.span, outcome === 'failed' ? (errorCode ?? 'internal') : 'ok', {
        'diosc.turn.outcome': outcome,
      });
    },
    modelStep(turn, step, run) {
      return inSpan(
        'diosc.model_step',
        turnContext(turn),
        { ...attributesOf(turn), 'diosc.step': step },
        (ctx) =>
          run({
            isEnabled: true,
            tracer: stepTracer(tracer, ctx),
            // The prompt is the visitor's text and the reply the model's: neither goes in a span.
            recordInputs: false,
            recordOutputs: false,
            functionId: 'diosc.model_step',
            metadata: { 'diosc.turn.id': turn.turnId, 'diosc.assistant.id': turn.assistantId },
          }),
        () => 'ok',
      );
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
      const span = tracer.startSpan(
        kind === 'interrupt' ? 'diosc.interrupt_wait' : 'diosc.consensus_wait',
        { attributes: { ...attributesOf(turn), 'diosc.tool': tool } },
        turnContext(turn),
      );
      remember(waits, callId, { span });
    },
    waitEnded(callId, outcome) {
      const span = waits.get(callId)?.span;
      if (!span) return;
      waits.delete(callId);
      span.setAttribute('diosc.wait.outcome', outcome);
      endWith(
        span,
        outcome === 'timed_out' ? 'interrupt_timed_out' : outcome === 'cancelled' ? 'cancelled' : 'ok',
      );
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
      for (const { span } of [...waits.values(), ...turns.values()]) {
        span.setAttribute('diosc.span.abandoned', true);
        span.end();
      }
      turns.clear();
      waits.clear();
      await provider.shutdown();
    },
  };
}
