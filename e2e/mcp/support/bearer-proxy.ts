import { createServer, request as forward, type Server } from 'node:http';

export interface BearerProxy {
  close(): Promise<void>;
}

/**
 * A transparent forwarding proxy that adds one header: `Authorization: Bearer <token>`. The MCP
 * conformance suite has no way to send a credential, and `/mcp` rightly refuses a request without
 * one; everything else — method, path, `Host`, `Origin`, the body, the streamed answer — passes
 * through untouched, so the server judges exactly what the suite sent. It listens on 127.0.0.1 at
 * the server's own port (the server listens on 127.0.0.2), so the suite's `Host` and `Origin`
 * carry the port the server really has.
 */
export async function startBearerProxy(options: {
  listen: { host: string; port: number };
  target: { host: string; port: number };
  token: string;
}): Promise<BearerProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: options.target.host,
        port: options.target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${options.token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
