import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';

/** One batch of spans as an OTLP `ExportTraceServiceRequest` (otlp-encoding.ts). */
export interface EncodedSpans {
  bytes: Uint8Array;
  count: number;
}

/** Where encoded batches go: a collector's OTLP/HTTP traces endpoint, or a test's list. */
export interface SpanSender {
  send(spans: EncodedSpans, done: (result: ExportResult) => void): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The sending thread's program. It runs OpenTelemetry's own OTLP/HTTP export delegate — what its
 * `OTLPTraceExporter` uses: the same headers, timeout, retries with backoff, bounded concurrency,
 * response size limit and `OTEL_EXPORTER_OTLP_*` settings — with the serializer left out, since the
 * bytes come made. Plain CommonJS, given the resolved path of that package: it runs the same from
 * source (tsx, Vitest) and from the bundled `diosc`, with no TypeScript loader in the thread.
 */
const SENDING_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const otlp = require(workerData.exporterBase);
const delegate = otlp.createOtlpHttpExportDelegate(
  otlp.convertLegacyHttpOptions({ url: workerData.url }, 'TRACES', 'v1/traces', {
    'Content-Type': 'application/x-protobuf',
  }),
  {
    serializeRequest: (spans) => spans.bytes,
    deserializeResponse: () => undefined,
  },
  'otlp_http_span_exporter',
  { name: 'span', countItems: (spans) => spans.count },
  undefined,
);
// An empty request first: the collector accepts it as a batch of no spans, and the HTTP client's
// code is compiled and its connection open before the first real batch.
delegate.export({ bytes: new Uint8Array(0), count: 0 }, () => {});
const reply = (id) => () => parentPort.postMessage({ id, code: 0 });
parentPort.on('message', (message) => {
  if (message.spans)
    delegate.export(message.spans, (result) =>
      parentPort.postMessage({ id: message.id, code: result.code, error: result.error?.message }),
    );
  else if (message.flush) delegate.forceFlush().then(reply(message.id));
  else delegate.shutdown().then(reply(message.id));
});
`;

/** The sending thread's heap: a few batches in flight and OpenTelemetry's code need far less. */
const SENDING_THREAD_HEAP_MB = 64;

interface Reply {
  id: number;
  code: ExportResultCode;
  error?: string;
}

/**
 * OTLP/HTTP with protobuf bodies, sent from a thread of its own: a worker, started with the sender
 * so that its start-up (a V8 isolate, OpenTelemetry's code) is over before the first batch. In the
 * request path's thread, the exporter's HTTP client would run through the same Node
 * functions as the server's responses (`_http_outgoing`, the streams), with objects of other
 * shapes: those functions' inline caches turn polymorphic and every round trip of the hub gets
 * slower (docs/architecture.md, "Spans leave from a thread of their own"). A thread that dies (out of
 * its heap, or stopped) fails the batches it held, and the next batch starts another.
 */
export function otlpSpanSender(url: string): SpanSender {
  const require = createRequire(import.meta.url);
  const workerData = {
    url,
    exporterBase: require.resolve('@opentelemetry/otlp-exporter-base/node-http'),
  };
  let nextId = 0;
  /** A started thread, and what it was asked and has not answered yet. */
  interface SendingThread {
    worker: Worker;
    waiting: Map<number, (reply: Reply) => void>;
  }
  const start = (): SendingThread => {
    const worker = new Worker(SENDING_THREAD, {
      eval: true,
      execArgv: [],
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: SENDING_THREAD_HEAP_MB },
    });
    const started: SendingThread = { worker, waiting: new Map() };
    worker.on('message', (reply: Reply) => {
      const settle = started.waiting.get(reply.id);
      started.waiting.delete(reply.id);
      settle?.(reply);
      if (started.waiting.size === 0) worker.unref();
    });
    const failAll = (error: string) => {
      for (const settle of started.waiting.values()) settle({ id: -1, code: ExportResultCode.FAILED, error });
      started.waiting.clear();
    };
    worker.on('error', (error) => failAll(error.message));
    worker.on('exit', () => {
      if (thread === started) thread = undefined;
      failAll('the span sending thread stopped');
    });
    // An idle sending thread never holds the process open; one with a batch in flight does, as
    // the HTTP request it makes would. After the listeners: adding a 'message' one refs the thread.
    worker.unref();
    return started;
  };
  let thread: SendingThread | undefined = start();
  const ask = (message: object): Promise<Reply> => {
    thread ??= start();
    const asked = thread;
    const id = nextId++;
    asked.worker.ref();
    return new Promise((resolve) => {
      asked.waiting.set(id, resolve);
      asked.worker.postMessage({ ...message, id });
    });
  };

  return {
    send(spans, done) {
      void ask({ spans }).then((reply) =>
        done(
          reply.error === undefined
            ? { code: reply.code }
            : { code: reply.code, error: new Error(reply.error) },
        ),
      );
    },
    async forceFlush() {
      if (thread) await ask({ flush: true });
    },
    async shutdown() {
      if (!thread) return;
      const stopping = thread;
      await ask({ shutdown: true });
      thread = undefined;
      await stopping.worker.terminate();
    },
  };
}
