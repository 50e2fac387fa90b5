import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type EncodedSpans, otlpSpanSender, type SpanSender } from '../../src/observability/otlp-sender.js';

/** A collector on loopback: keeps each request, and answers with `status.next` (200 unless set) after `delayMs`. */
async function startCollector(delayMs = 0) {
  const requests: { contentType: string | undefined; body: string }[] = [];
  const status = { next: 200 };
  let arrived = () => {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks).toString() });
      arrived();
      setTimeout(
        () => response.writeHead(status.next, { 'content-type': 'application/x-protobuf' }).end(),
        delayMs,
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    status,
    /** Resolves once `count` requests have arrived. */
    async received(count: number) {
      while (requests.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SENDER_CHILD = fileURLToPath(new URL('./sender-child/sender-child.ts', import.meta.url));

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

    expect(collector.requests).toEqual([{ contentType: 'application/x-protobuf', body: '' }]);
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
    expect(batches.map(({ body }) => body).sort()).toEqual(['first batch', 'second batch']);
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
    expect(collector.requests.slice(1).map(({ body }) => body)).toEqual(['refused', 'accepted']);
  });

  it('delivers a batch still in flight before its shutdown resolves', async () => {
    const collector = await startCollector();
    cleanup.push(collector.close);
    const sender = otlpSpanSender(collector.url);
    const results: ExportResult[] = [];
    sender.send(batch('last batch'), (result) => results.push(result));

    await sender.shutdown();

    expect(collector.requests.map(({ body }) => body).filter(Boolean)).toEqual(['last batch']);
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
    expect(collector.requests.map(({ body }) => body)).toContain('the last batch');
  });
});
