import type { ExportResult } from '@opentelemetry/core';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

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
 * OTLP/HTTP with protobuf bodies, through OpenTelemetry's own HTTP export delegate — what its
 * `OTLPTraceExporter` uses: the same headers, timeout, retries with backoff, bounded concurrency and
 * `OTEL_EXPORTER_OTLP_*` settings. Only the serializer differs: the bytes are already made.
 */
export function otlpSpanSender(url: string): SpanSender {
  const delegate = createOtlpHttpExportDelegate<EncodedSpans, unknown>(
    convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    {
      serializeRequest: (spans) => spans.bytes,
      deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (spans) => spans.count },
    undefined,
  );
  return {
    send: (spans, done) => delegate.export(spans, done),
    forceFlush: () => delegate.forceFlush(),
    shutdown: () => delegate.shutdown(),
  };
}
