import { randomUUID } from 'node:crypto';
import { loadConfig } from '@diosc/server';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { sampledTurn } from '../../src/observability/span-tracing.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../hub/support/hub-server.js';
import { planWrite } from '../hub/support/plan-write.js';
import { connectClient, createConnection } from '../mcp/support.js';
import { startCollector } from './collector.js';

const VISITOR_TEXT = 'Please highlight product 42 for Ada Lovelace';
const MODEL_TEXT = 'Highlighting the row you asked about.';

const HIGHLIGHT = {
  name: 'highlight_row',
  description: 'Highlight a row of the products table.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string' } },
  },
};

const write = planWrite('req-traces-1', 'plan', 'Secret plan of Ada');

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Spans exported as each ends (no batch), so a test reads them as soon as the turn is over. */
function traced() {
  const exporter = new InMemorySpanExporter();
  return { exporter, tracing: { spanExporters: [exporter], batchMs: 0 } };
}

/** Every span exported, kept past the provider's shutdown (which empties an in-memory exporter). */
function keptSpans() {
  const spans: ReadableSpan[] = [];
  const exporter: SpanExporter = {
    export(batch, done) {
      spans.push(...batch);
      done({ code: 0 }); // ExportResultCode.SUCCESS
    },
    shutdown: async () => {},
  };
  return { spans, exporter };
}

const idOf = (span: ReadableSpan) => span.spanContext().spanId;
/** An HrTime ([seconds, nanoseconds]) as epoch milliseconds. */
const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** Everything a span would send, as one string to search for what must not be in it. */
function wireText(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      links: span.links,
    })),
  );
}

describe('traces configuration', () => {
  it('trace every turn unless a sample ratio from 0 to 1 says otherwise', () => {
    expect(loadConfig({}, '/tmp').tracesSampleRatio).toBe(1);
    expect(loadConfig({ DIOSC_TRACES_SAMPLE_RATIO: '0.1' }, '/tmp').tracesSampleRatio).toBe(0.1);
    expect(loadConfig({ DIOSC_TRACES_SAMPLE_RATIO: '0' }, '/tmp').tracesSampleRatio).toBe(0);
    for (const bad of ['2', '-0.5', 'some', 'NaN', '0.5x']) {
      expect(() => loadConfig({ DIOSC_TRACES_SAMPLE_RATIO: bad }, '/tmp')).toThrow(
        /DIOSC_TRACES_SAMPLE_RATIO/,
      );
    }
  });

  it('keep or drop a turn by its id: the same answer every time, on every instance, at about the ratio', () => {
    const turnIds = Array.from({ length: 4_000 }, () => `trn_${randomUUID()}`);
    for (const ratio of [0, 0.25, 1]) {
      const kept = turnIds.filter((turnId) => sampledTurn(turnId, ratio));
      expect(turnIds.filter((turnId) => sampledTurn(turnId, ratio))).toEqual(kept);
      expect(Math.abs(kept.length / turnIds.length - ratio)).toBeLessThan(0.05);
    }
  });

  it('are off by default, and take an http(s) OTLP endpoint', () => {
    expect(loadConfig({}, '/tmp').tracesOtlpUrl).toBeUndefined();
    expect(
      loadConfig({ DIOSC_TRACES_OTLP_URL: 'http://127.0.0.1:4318/v1/traces' }, '/tmp').tracesOtlpUrl,
    ).toBe('http://127.0.0.1:4318/v1/traces');
    expect(() => loadConfig({ DIOSC_TRACES_OTLP_URL: 'collector:4318' }, '/tmp')).toThrow(
      /DIOSC_TRACES_OTLP_URL/,
    );
  });
});

/** A visitor asks; the script's first step calls `highlight_row` on the page. */
async function askToHighlight(on: HubTestServer) {
  const visit = await on.visit();
  await visit.client.send(visit.conversation, {
    text: VISITOR_TEXT,
    registry: { tools: ['highlight_row'], intents: [] },
  });
  return visit;
}

/** The page answers the highlight, and the turn runs to its end. Returns the turn's id. */
async function answerHighlight({ client, stream }: Awaited<ReturnType<typeof askToHighlight>>) {
  const { interrupt } = await stream.until('interrupt');
  await client.answer(interrupt.id, { result: { highlighted: '42' } });
  const { turnId } = await stream.until('turn.done');
  stream.close();
  return turnId;
}

describe('traces over OTLP', () => {
  it('reach a collector as protobuf when the process stops: the turn, its steps and its wait, no visitor text', async () => {
    const collector = await startCollector();
    try {
      server = await startHubServer({
        config: { tracesOtlpUrl: collector.url },
        script: [{ toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] }, { text: MODEL_TEXT }],
        assistant: { browserTools: [HIGHLIGHT] },
      });
      const visit = await askToHighlight(server);
      const { client, conversation } = visit;
      const turnId = await answerHighlight(visit);
      // The app's close exports what its batch still holds.
      await server.close();
      server = undefined;
      expect(collector.requests.length).toBeGreaterThan(0);
      for (const request of collector.requests) expect(request.contentType).toBe('application/x-protobuf');
      // Protobuf keeps strings as their UTF-8 bytes: the names and ids are there, the turn's text is not.
      const body = Buffer.concat(collector.requests.map((request) => request.body)).toString('latin1');
      for (const present of [
        'diosc.turn',
        'diosc.model_step',
        'diosc.interrupt_wait',
        'gen_ai.request.model',
        'service.name',
        turnId,
      ]) {
        expect(body).toContain(present);
      }
      for (const absent of [VISITOR_TEXT, MODEL_TEXT, 'Ada', conversation, client.token!]) {
        expect(body).not.toContain(absent);
      }
    } finally {
      await collector.close();
    }
  });
});

describeOnDialects('traces', () => {
  it('make one tree of a turn: model steps with their gen_ai attributes, the tool call and both waits', async () => {
    const { exporter, tracing } = traced();
    server = await startHubServer({
      tracing,
      script: [
        { text: MODEL_TEXT, toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
        { toolCalls: [{ toolName: 'item_write', input: write }] },
        { text: 'Done.' },
      ],
      assistant: {
        browserTools: [HIGHLIGHT],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_write'] }] },
          consensus: { item_write: 'high' },
        },
      },
    });
    const assistantId = server.assistant.id;
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, {
      text: VISITOR_TEXT,
      registry: { tools: ['highlight_row'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    await client.answer(interrupt.id, { result: { highlighted: '42' } });
    const { request } = await stream.until('consensus.requested');
    await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest });
    const { turnId } = await stream.until('turn.done');
    stream.close();

    const spans = exporter.getFinishedSpans();
    const turn = spans.filter((span) => span.name === 'diosc.turn');
    expect(turn).toHaveLength(1);
    const root = turn[0]!;
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'diosc.turn.id': turnId,
      'diosc.assistant.id': assistantId,
      'diosc.turn.outcome': 'done',
      'diosc.result.code': 'ok',
    });
    // Every span of the turn is in its trace, under it.
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(
      new Set([root.spanContext().traceId]),
    );
    const children = spans.filter((span) => parentOf(span) === idOf(root));
    expect(children.map((span) => span.name).sort()).toEqual([
      'diosc.consensus_wait',
      'diosc.interrupt_wait',
      'diosc.model_step',
      'diosc.model_step',
      'diosc.model_step',
      'diosc.tool_call',
    ]);
    for (const child of children) {
      expect(child.attributes).toMatchObject({ 'diosc.turn.id': turnId, 'diosc.assistant.id': assistantId });
    }
    const steps = children.filter((span) => span.name === 'diosc.model_step');
    expect(steps.map((span) => span.attributes['diosc.step']).sort()).toEqual([0, 1, 2]);
    for (const step of steps) {
      // One provider call per step, named as OpenTelemetry's GenAI conventions name it.
      expect(step.kind).toBe(SpanKind.CLIENT);
      expect(step.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'diosc.result.code': 'ok',
      });
      expect(typeof step.attributes['gen_ai.request.model']).toBe('string');
      expect(step.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(spans.filter((span) => parentOf(span) === idOf(step))).toEqual([]);
    }
    // The first two steps ended in tool calls, the last in the reply.
    const byStep = [...steps].sort(
      (a, b) => Number(a.attributes['diosc.step']) - Number(b.attributes['diosc.step']),
    );
    expect(byStep.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool-calls'],
      ['tool-calls'],
      ['stop'],
    ]);
    const wait = (name: string) => children.find((span) => span.name === name)!;
    expect(wait('diosc.interrupt_wait').attributes).toMatchObject({
      'diosc.tool': 'highlight_row',
      'diosc.wait.outcome': 'answered',
    });
    expect(wait('diosc.consensus_wait').attributes).toMatchObject({
      'diosc.tool': 'item_write',
      'diosc.wait.outcome': 'approve',
    });
    expect(wait('diosc.tool_call').attributes).toMatchObject({
      'diosc.tool': 'item_write',
      'diosc.result.code': 'ok',
    });

    // Ids, names and codes only: no prompt, reply, argument, key or token of the turn.
    const text = wireText(spans);
    for (const secret of [
      VISITOR_TEXT,
      'Ada',
      MODEL_TEXT,
      'Ship it.',
      'req-traces-1',
      conversation,
      server.assistant.publishableKey,
      client.token!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('end the wait of a browser tool and of an approval nobody answered as timed out', async () => {
    const { exporter, tracing } = traced();
    server = await startHubServer({
      tracing,
      realClock: false,
      script: [
        { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
        { toolCalls: [{ toolName: 'item_write', input: write }] },
        { text: 'Nobody answered.' },
      ],
      assistant: {
        browserTools: [HIGHLIGHT],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
          consensus: { item_write: 'high' },
        },
        limits: { interruptTimeoutMs: 1_000, consensusTimeoutMs: 1_000 },
      },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, {
      text: VISITOR_TEXT,
      registry: { tools: ['highlight_row'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    server.clock.advance(1_001);
    expect(await stream.until('interrupt.resolved')).toMatchObject({
      interruptId: interrupt.id,
      outcome: 'timed_out',
    });
    await stream.until('consensus.requested');
    server.clock.advance(1_001);
    await stream.until('turn.done');
    stream.close();

    const spans = exporter.getFinishedSpans();
    const root = spans.find((span) => span.name === 'diosc.turn')!;
    const wait = (name: string) => {
      const found = spans.filter((span) => span.name === name);
      expect(found).toHaveLength(1);
      expect(parentOf(found[0]!)).toBe(idOf(root));
      return found[0]!;
    };
    for (const [name, tool] of [
      ['diosc.interrupt_wait', 'highlight_row'],
      ['diosc.consensus_wait', 'item_write'],
    ] as const) {
      const span = wait(name);
      expect(span.attributes).toMatchObject({
        'diosc.tool': tool,
        'diosc.wait.outcome': 'timed_out',
        'diosc.result.code': 'interrupt_timed_out',
      });
      expect(span.status.code).toBe(2);
      expect(span.attributes['diosc.span.abandoned']).toBeUndefined();
    }
    // The approval never ran: no tool call span.
    expect(spans.filter((span) => span.name === 'diosc.tool_call')).toEqual([]);
  });

  it('end a failed turn with its code, and keep a provider’s error text out of the model step’s span', async () => {
    const { exporter, tracing } = traced();
    server = await startHubServer({
      tracing,
      script: () => {
        throw new Error('provider down for Ada Lovelace, key sk-live-0123456789');
      },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: VISITOR_TEXT });
    await stream.until('turn.failed', () => true, 20_000);
    stream.close();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((span) => span.name === 'diosc.turn')!;
    expect(root.attributes).toMatchObject({
      'diosc.turn.outcome': 'failed',
      'diosc.result.code': 'model_failed',
    });
    expect(root.status.code).toBe(2);
    const step = spans.find((span) => span.name === 'diosc.model_step')!;
    expect(step.attributes).toMatchObject({ 'diosc.result.code': 'model_failed' });
    expect(step.status.code).toBe(2);
    expect(step.events.map((event) => event.name)).toEqual(['exception']);
    const text = wireText(spans);
    expect(text).not.toContain('Ada');
    expect(text).not.toContain('sk-live');
    expect(text).not.toContain('provider down');
  });

  it('export the ended spans in batches, with the times they had; the batch left is exported at shutdown', async () => {
    const { spans, exporter } = keptSpans();
    // A batch older than the test: only the shutdown makes it.
    server = await startHubServer({
      tracing: { spanExporters: [exporter], batchMs: 3_600_000 },
      script: [{ toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] }, { text: 'Done.' }],
      assistant: { browserTools: [HIGHLIGHT] },
    });
    const { client, conversation, stream } = await server.visit();
    const sentAt = Date.now();
    await client.send(conversation, {
      text: VISITOR_TEXT,
      registry: { tools: ['highlight_row'], intents: [] },
    });
    const { interrupt } = await stream.until('interrupt');
    await client.answer(interrupt.id, { result: { highlighted: '42' } });
    await stream.until('turn.done');
    const doneAt = Date.now();
    stream.close();
    // Every span of the turn, its own included, waits for its batch.
    expect(spans).toEqual([]);
    await server.close();
    server = undefined;
    const root = spans.find((span) => span.name === 'diosc.turn')!;
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual(['diosc.interrupt_wait', 'diosc.model_step', 'diosc.model_step', 'diosc.turn']);
    const steps = spans.filter((span) => span.name === 'diosc.model_step');
    const wait = spans.find((span) => span.name === 'diosc.interrupt_wait')!;
    for (const span of [...steps, wait]) {
      expect(parentOf(span)).toBe(idOf(root));
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(span.attributes['diosc.result.code']).toBe('ok');
      // Made at shutdown, but timed when it happened: inside the turn, never after it.
      const start = ms(span.startTime);
      const end = ms(span.endTime);
      expect(start).toBeGreaterThanOrEqual(sentAt - 1);
      expect(end).toBeGreaterThanOrEqual(start);
      expect(end).toBeLessThanOrEqual(doneAt + 1);
    }
    // In order: the first step asked, the page was waited on, then the second step answered.
    const [first, second] = steps.sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(ms(wait.startTime)).toBeGreaterThanOrEqual(ms(first!.endTime) - 1);
    expect(ms(second!.startTime)).toBeGreaterThanOrEqual(ms(wait.endTime) - 1);
    expect(wait.attributes).toMatchObject({
      'diosc.wait.outcome': 'answered',
      'diosc.tool': 'highlight_row',
    });
  });

  it('end a wait the process never saw answered as abandoned when it stops', async () => {
    const { spans, exporter } = keptSpans();
    server = await startHubServer({
      tracing: { spanExporters: [exporter] },
      script: [{ toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] }, { text: 'Done.' }],
      assistant: { browserTools: [HIGHLIGHT] },
    });
    const { stream } = await askToHighlight(server);
    await stream.until('interrupt');
    stream.close();
    await server.close();
    server = undefined;
    const wait = spans.find((span) => span.name === 'diosc.interrupt_wait')!;
    const turn = spans.find((span) => span.name === 'diosc.turn')!;
    for (const span of [wait, turn]) expect(span.attributes['diosc.span.abandoned']).toBe(true);
    expect(wait.attributes['diosc.result.code']).toBeUndefined();
    expect(parentOf(wait)).toBe(idOf(turn));
  });

  it('make no span of a turn or an /mcp call the sample ratio leaves out', async () => {
    const exporter = new InMemorySpanExporter();
    server = await startHubServer({
      tracing: { spanExporters: [exporter], batchMs: 0, sampleRatio: 0 },
      script: [{ toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] }, { text: 'Done.' }],
      assistant: { browserTools: [HIGHLIGHT] },
    });
    await answerHighlight(await askToHighlight(server));
    const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const mcp = await connectClient(server, connection.token);
    await mcp.callTool({ name: 'items_list', arguments: { collection: 'notes' } });
    await mcp.close();
    // Spans are exported as they end here (no batch): none was made.
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('make each /mcp call a span of its function and code', async () => {
    const { exporter, tracing } = traced();
    server = await startHubServer({ tracing });
    const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const mcp = await connectClient(server, connection.token);
    await mcp.callTool({ name: 'items_list', arguments: { collection: 'notes' } });
    await mcp.callTool({ name: 'items_list', arguments: { collection: 'drive' } });
    await mcp.close();
    const calls = exporter.getFinishedSpans().filter((span) => span.name === 'diosc.mcp_call');
    expect(
      calls.map((span) => [span.attributes['diosc.mcp.function'], span.attributes['diosc.result.code']]),
    ).toEqual([
      ['items_list', 'ok'],
      ['items_list', 'not_granted'],
    ]);
    const text = wireText(calls);
    expect(text).not.toContain(connection.token);
    expect(text).not.toContain('drive');
  });
});
