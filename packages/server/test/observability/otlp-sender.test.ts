import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type EncodedSpans, otlpSpanSender, type SpanSender } from '../../src/observability/otlp-sender.js';
import { type Collector, startCollector } from './collector.js';

const SENDER_CHILD = fileURLToPath(new URL('./sender-child/sender-child.ts', import.meta.url));

/** Each request's body, as the text a test batch was made of. */
const texts = (collector: Collector) => collector.requests.map(({ body }) => body.toString());

const batch = (text: string): EncodedSpans => ({ bytes: new TextEncoder().encode(text), count: 1 });

const sent = (sender: SpanSender, spans: EncodedSpans) =>
  new Promise<ExportResult>((resolve) => sender.send(spans, resolve));

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A sender to a fresh collector, past its opening request. */
async function senderWithCollector() {
  const collector = await startCollector();
  cleanup.push(collector.close);
  const sender = otlpSpanSender(collector.url);
  cleanup.push(() => sender.shutdown());
  await collector.received(1);
  return { collector, sender };
}

describe('the OTLP span sender', () => {
  it('opens with an empty export, a batch of no spans, before it is given any', async () => {
    const { collector } = await senderWithCollector();

    expect(collector.requests).toEqual([{ contentType: 'application/x-protobuf', body: Buffer.alloc(0) }]);
  });

  it('posts each batch’s bytes unchanged, as protobuf, and reports each one sent', async () => {
    const { collector, sender } = await senderWithCollector();

    const results = await Promise.all([
      sent(sender, batch('first batch')),
      sent(sender, batch('second batch')),
    ]);

    expect(results.map((result) => result.code)).toEqual([
      ExportResultCode.SUCCESS,
      ExportResultCode.SUCCESS,
    ]);
    const batches = collector.requests.slice(1);
    expect(batches.map(({ body }) => body.toString()).sort()).toEqual(['first batch', 'second batch']);
    for (const { contentType } of batches) expect(contentType).toBe('application/x-protobuf');
  });

  it('reports a batch the collector refuses as failed, with the reason, and sends the next one', async () => {
    const { collector, sender } = await senderWithCollector();

    collector.status.next = 400;
    const refused = await sent(sender, batch('refused'));
    expect(refused.code).toBe(ExportResultCode.FAILED);
    expect(refused.error?.message).toBeTruthy();

    collector.status.next = 200;
    const accepted = await sent(sender, batch('accepted'));
    expect(accepted.code).toBe(ExportResultCode.SUCCESS);
    expect(texts(collector).slice(1)).toEqual(['refused', 'accepted']);
  });

  it('delivers a batch still in flight before its shutdown resolves', async () => {
    const collector = await startCollector();
    cleanup.push(collector.close);
    const sender = otlpSpanSender(collector.url);
    const results: ExportResult[] = [];
    sender.send(batch('last batch'), (result) => results.push(result));

    await sender.shutdown();

    expect(texts(collector).filter(Boolean)).toEqual(['last batch']);
    expect(results.map((result) => result.code)).toEqual([ExportResultCode.SUCCESS]);
  });

  it('fails a batch nobody receives within OpenTelemetry’s timeout, read from the environment', async () => {
    const collector = await startCollector();
    await collector.close();
    // The thread reads the OTEL_EXPORTER_OTLP_* settings as OpenTelemetry's exporter does.
    process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT = '300';
    cleanup.push(() => delete process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT);
    const sender = otlpSpanSender(collector.url);
    cleanup.push(() => sender.shutdown());

    const result = await sent(sender, batch('lost'));

    expect(result.code).toBe(ExportResultCode.FAILED);
  });

  it('holds its process open while a batch is in flight, and never while idle', async () => {
    // The collector answers each request 300 ms late: a process that left before that would not
    // have printed the batch's result.
    const collector = await startCollector(300);
    cleanup.push(collector.close);
    const run = async (...args: string[]) => {
      const child = spawn(process.execPath, ['--import', 'tsx', SENDER_CHILD, collector.url, ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const [code] = (await once(child, 'close')) as [number | null];
      return { code, stdout };
    };

    const idle = await run();
    expect(idle).toEqual({ code: 0, stdout: '' });

    const sending = await run('the last batch');
    expect(sending).toEqual({ code: 0, stdout: `sent ${ExportResultCode.SUCCESS}\n` });
    expect(texts(collector)).toContain('the last batch');
  });
});
