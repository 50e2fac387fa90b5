import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request an OTLP collector received. */
export interface CollectedRequest {
  contentType: string | undefined;
  body: Buffer;
}

export interface Collector {
  /** Its OTLP/HTTP traces endpoint. */
  url: string;
  requests: CollectedRequest[];
  /** The status the next answers carry (200 unless set). */
  status: { next: number };
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A stand-in OTLP/HTTP collector on loopback: keeps each request, answers each `delayMs` late. */
export async function startCollector(delayMs = 0): Promise<Collector> {
  const requests: CollectedRequest[] = [];
  const status = { next: 200 };
  let arrived = () => {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
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
    async received(count) {
      while (requests.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
