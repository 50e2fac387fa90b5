import {
  type AttributeSink,
  attributesOf,
  failed,
  identify,
  KIND,
  rootOf,
  SERVICE_NAME,
  type SpanRecord,
} from './span-record.js';

// Protobuf's wire types.
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** OTLP's `Span.flags`: the W3C trace flags (sampled) and "whether the parent is remote is known" (it is not remote). */
const SPAN_FLAGS = 0x01 | 0x100;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

function isAscii(value: string): boolean {
  for (let index = 0; index < value.length; index++) if (value.charCodeAt(index) > 127) return false;
  return true;
}

const varintSize = (value: number) => {
  let size = 1;
  for (let rest = value; rest > 127; rest = Math.floor(rest / 128)) size++;
  return size;
};

/**
 * Protobuf written straight into one reused buffer: no message objects, no second pass. A nested
 * message reserves one byte for its length and moves its bytes along in the rare case it needs more.
 */
export class ProtobufWriter {
  private buffer: Buffer;
  position = 0;

  constructor(size = 16 * 1024) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  private ensure(bytes: number): void {
    const needed = this.position + bytes;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  /** A non-negative integer up to 2⁵³ (the only kind a span carries). */
  varint(value: number): void {
    this.ensure(10);
    let rest = value;
    while (rest > 127) {
      this.buffer[this.position++] = (rest & 127) | 128;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.position++] = rest;
  }

  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  string(field: number, value: string): void {
    this.tag(field, LENGTH_DELIMITED);
    const length = value.length;
    // Almost every string a span carries is short ASCII (names, ids, codes): copied char by char,
    // it skips a call into the runtime to measure it and another to write it.
    if (length < 128 && isAscii(value)) {
      this.ensure(length + 1);
      const buffer = this.buffer;
      let at = this.position;
      buffer[at++] = length;
      for (let index = 0; index < length; index++) buffer[at++] = value.charCodeAt(index);
      this.position = at;
      return;
    }
    const bytes = Buffer.byteLength(value, 'utf8');
    this.varint(bytes);
    this.ensure(bytes);
    this.position += this.buffer.write(value, this.position, bytes, 'utf8');
  }

  private word(value: number): void {
    const buffer = this.buffer;
    const at = this.position;
    buffer[at] = value >>> 24;
    buffer[at + 1] = (value >>> 16) & 0xff;
    buffer[at + 2] = (value >>> 8) & 0xff;
    buffer[at + 3] = value & 0xff;
    this.position = at + 4;
  }

  private littleEndianWord(value: number): void {
    const buffer = this.buffer;
    const at = this.position;
    buffer[at] = value & 0xff;
    buffer[at + 1] = (value >>> 8) & 0xff;
    buffer[at + 2] = (value >>> 16) & 0xff;
    buffer[at + 3] = value >>> 24;
    this.position = at + 4;
  }

  /** A span id from its two 32-bit words, big-endian: the bytes its hex spells. */
  spanId(field: number, high: number, low: number): void {
    this.tag(field, LENGTH_DELIMITED);
    this.varint(8);
    this.ensure(8);
    this.word(high);
    this.word(low);
  }

  /** A trace id from its four 32-bit words, big-endian. */
  traceId(field: number, record: SpanRecord): void {
    this.tag(field, LENGTH_DELIMITED);
    this.varint(16);
    this.ensure(16);
    this.word(record.traceId0);
    this.word(record.traceId1);
    this.word(record.traceId2);
    this.word(record.traceId3);
  }

  fixed32(field: number, value: number): void {
    this.tag(field, FIXED32);
    this.ensure(4);
    this.littleEndianWord(value);
  }

  /**
   * Epoch milliseconds as OTLP's fixed64 nanoseconds. The nanoseconds overflow a double's exact
   * integers, so they are put together as two 32-bit halves — the arithmetic of OpenTelemetry's
   * own serializer (from `millisToHrTime`'s seconds and nanoseconds), so both give the same bytes.
   */
  time(field: number, epochMillis: number): void {
    const seconds = Math.trunc(epochMillis / 1000);
    const nanos = Math.round((epochMillis % 1000) * 1e6);
    const lowSeconds = seconds & 0xffff;
    const highSeconds = (seconds / 0x10000) >>> 0;
    const fromLow = lowSeconds * 1e9;
    const fromHigh = highSeconds * 1e9;
    const low = (fromLow >>> 0) + (((fromHigh & 0xffff) * 0x10000) >>> 0) + nanos;
    const high =
      Math.floor(fromLow / 0x1_0000_0000) + ((fromHigh / 0x10000) >>> 0) + Math.floor(low / 0x1_0000_0000);
    this.tag(field, FIXED64);
    this.ensure(8);
    this.littleEndianWord(low >>> 0);
    this.littleEndianWord(high >>> 0);
  }

  /** Opens a nested message in `field`; `end` closes it with its length. */
  begin(field: number): number {
    this.tag(field, LENGTH_DELIMITED);
    this.ensure(1);
    return this.position++;
  }

  end(start: number): void {
    const length = this.position - start - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.ensure(size - 1);
      this.buffer.copyWithin(start + size, start + 1, this.position);
      this.position += size - 1;
    }
    let at = start;
    let rest = length;
    while (rest > 127) {
      this.buffer[at++] = (rest & 127) | 128;
      rest = Math.floor(rest / 128);
    }
    this.buffer[at] = rest;
  }

  /** Raw bytes, already protobuf. */
  append(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.position);
    this.position += bytes.length;
  }

  /** What has been written, as a view of the buffer (valid until the next write or `reset`). */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.position);
  }

  reset(): void {
    this.position = 0;
  }
}

/** OTLP's `KeyValue` attributes in `field`, written as `attributesOf` names them. */
class KeyValueWriter implements AttributeSink {
  field = 9;
  /** Where the open `KeyValue` and its `AnyValue` begin (one attribute is written at a time). */
  private pair = 0;
  private any = 0;
  constructor(private readonly writer: ProtobufWriter) {}

  /** Opens the `KeyValue` of `key` and its `AnyValue`, for the value's one field. */
  private open(key: string): void {
    this.pair = this.writer.begin(this.field);
    this.writer.string(1, key);
    this.any = this.writer.begin(2);
  }

  private close(): void {
    this.writer.end(this.any);
    this.writer.end(this.pair);
  }

  string(key: string, value: string): void {
    this.open(key);
    this.writer.string(1, value);
    this.close();
  }

  int(key: string, value: number): void {
    this.open(key);
    this.writer.tag(3, VARINT);
    this.writer.varint(value);
    this.close();
  }

  bool(key: string, value: boolean): void {
    this.open(key);
    this.writer.tag(2, VARINT);
    this.writer.varint(value ? 1 : 0);
    this.close();
  }

  /** A one-string array (an `ArrayValue` of one `AnyValue`). */
  strings(key: string, value: string): void {
    this.open(key);
    const array = this.writer.begin(5);
    const item = this.writer.begin(1);
    this.writer.string(1, value);
    this.writer.end(item);
    this.writer.end(array);
    this.close();
  }
}

/**
 * A batch of ended spans as OTLP protobuf, each written straight from its record as it is added —
 * no `ReadableSpan`, no message objects — so the batch holds bytes outside V8's heap, not objects
 * (docs/architecture.md, "Spans are journaled"). The fields and their order are those of
 * OpenTelemetry's own serializer given the same spans as `ReadableSpan`s (readable-span.ts); a test
 * holds the two to the same bytes. One encoder per tracer: its buffer is reused from batch to batch.
 */
export class OtlpSpanEncoder {
  private readonly writer = new ProtobufWriter();
  private readonly attributes = new KeyValueWriter(this.writer);

  /** The batch as one `ExportTraceServiceRequest` (the hub's resource and scope around its spans); empties it. */
  take(): Uint8Array {
    const spans = this.writer.view();
    // Lengths first: the spans are copied once, to where they end up.
    const scopeSpansLength = SCOPE.length + spans.length;
    const resourceSpansLength = RESOURCE.length + 1 + varintSize(scopeSpansLength) + scopeSpansLength;
    const request = new ProtobufWriter(1 + varintSize(resourceSpansLength) + resourceSpansLength);
    request.tag(1, LENGTH_DELIMITED);
    request.varint(resourceSpansLength);
    request.append(RESOURCE);
    request.tag(2, LENGTH_DELIMITED);
    request.varint(scopeSpansLength);
    request.append(SCOPE);
    request.append(spans);
    this.writer.reset();
    return request.view();
  }

  /** Appends one span to the batch: one `ScopeSpans.spans` field. */
  add(record: SpanRecord): void {
    const writer = this.writer;
    identify(record);
    const span = writer.begin(2);
    writer.traceId(1, rootOf(record));
    writer.spanId(2, record.spanIdHigh, record.spanIdLow);
    if (record.parent) writer.spanId(4, record.parent.spanIdHigh, record.parent.spanIdLow);
    writer.string(5, record.name);
    writer.tag(6, VARINT);
    writer.varint(KIND[record.name] + 1); // OTLP's SpanKind counts from 1 (0 is unspecified)
    const endTime = Math.max(record.startTime, record.endTime);
    writer.time(7, record.startTime);
    writer.time(8, endTime);
    this.attributes.field = 9;
    attributesOf(record, this.attributes);
    writer.tag(10, VARINT); // dropped attributes
    writer.varint(0);
    if (record.exception !== undefined) {
      const event = writer.begin(11);
      writer.time(1, endTime);
      writer.string(2, 'exception');
      this.attributes.field = 3;
      this.attributes.string('exception.type', record.exception);
      writer.tag(4, VARINT);
      writer.varint(0);
      writer.end(event);
    }
    writer.tag(12, VARINT); // dropped events
    writer.varint(0);
    writer.tag(14, VARINT); // dropped links
    writer.varint(0);
    const status = writer.begin(15);
    writer.tag(3, VARINT);
    writer.varint(failed(record) ? STATUS_ERROR : STATUS_UNSET);
    writer.end(status);
    writer.fixed32(16, SPAN_FLAGS);
    writer.end(span);
  }
}

/** `ResourceSpans.resource`: the hub's service name, nothing dropped. */
const RESOURCE = (() => {
  const writer = new ProtobufWriter(64);
  const resource = writer.begin(1);
  const attributes = new KeyValueWriter(writer);
  attributes.field = 1;
  attributes.string('service.name', SERVICE_NAME);
  writer.tag(2, VARINT);
  writer.varint(0);
  writer.end(resource);
  return Uint8Array.from(writer.view());
})();

/** `ScopeSpans.scope`: the hub's instrumentation scope. */
const SCOPE = (() => {
  const writer = new ProtobufWriter(32);
  const scope = writer.begin(1);
  writer.string(1, SERVICE_NAME);
  writer.end(scope);
  return Uint8Array.from(writer.view());
})();
