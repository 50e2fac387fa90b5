import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  /** `http://localhost:<port>`: a different origin from the hub's `127.0.0.1`, as a real site is. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Built files over loopback HTTP, the way a host serves its app: `fileFor` maps a request path to a
 * file (or nothing: 404), so a single-page app's routes can all be its one HTML file.
 */
export async function serveStatic(
  fileFor: (pathname: string) => string | undefined,
  /** Headers a path is served with besides its type (a page's Content-Security-Policy, say). */
  headersFor: (pathname: string) => Record<string, string> = () => ({}),
): Promise<StaticServer> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = fileFor(path);
    const body = file ? await readFile(file).catch(() => undefined) : undefined;
    if (!file || !body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...headersFor(path),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
