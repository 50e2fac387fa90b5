import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUpstream {
  url: string;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A plain HTTP server on loopback that answers every request with `reply` (status, type, body). */
export async function startFakeUpstream(
  reply: (path: string) => { status: number; body: string; type?: string; headers?: Record<string, string> },
): Promise<FakeUpstream> {
  const requests: FakeUpstream['requests'] = [];
  const server = createServer(async (request, response) => {
    for await (const _chunk of request) {
      // drain
    }
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const answer = reply(request.url ?? '/');
    response.writeHead(answer.status, {
      'content-type': answer.type ?? 'application/json',
      ...answer.headers,
    });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
