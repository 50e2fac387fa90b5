import { type Attributes, type SpanContext, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
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

const hex = (word: number) => word.toString(16).padStart(8, '0');

function contextOf(record: SpanRecord): SpanContext {
  identify(record);
  const root = rootOf(record);
  return {
    traceId: hex(root.traceId0) + hex(root.traceId1) + hex(root.traceId2) + hex(root.traceId3),
    spanId: hex(record.spanIdHigh) + hex(record.spanIdLow),
    traceFlags: TraceFlags.SAMPLED,
  };
}

function attributeObjectOf(record: SpanRecord): Attributes {
  const attributes: Attributes = {};
  const sink: AttributeSink = {
    string: (key, value) => {
      attributes[key] = value;
    },
    int: (key, value) => {
      attributes[key] = value;
    },
    bool: (key, value) => {
      attributes[key] = value;
    },
    strings: (key, value) => {
      attributes[key] = [value];
    },
  };
  attributesOf(record, sink);
  return attributes;
}

const NONE: never[] = [];
const UNSET = { code: SpanStatusCode.UNSET };
const FAILED = { code: SpanStatusCode.ERROR };

// The hub's one resource and instrumentation scope, shared by every span.
const RESOURCE = resourceFromAttributes({ 'service.name': SERVICE_NAME });
const SCOPE = { name: SERVICE_NAME };

/**
 * The span as OpenTelemetry's SDK would have made it, for an SDK `SpanExporter` (an in-memory one in
 * tests). The OTLP path never builds it: it encodes the record as it ends (otlp-encoding.ts), and a
 * test holds the two to the same bytes.
 */
export function toReadableSpan(record: SpanRecord): ReadableSpan {
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
  return {
    name: record.name,
    kind: KIND[record.name],
    spanContext: () => context,
    parentSpanContext: record.parent ? contextOf(record.parent) : undefined,
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status: failed(record) ? FAILED : UNSET,
    attributes: attributeObjectOf(record),
    links: NONE,
    events,
    ended: true,
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
