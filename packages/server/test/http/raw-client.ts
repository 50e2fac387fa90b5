import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 answer as it came off the socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The JSON of the body, or undefined when there was none or it was not JSON. */
  json: unknown;
  /** How many of the request's parts were written before the server closed the connection. */
  partsSent: number;
}

export interface RawOptions {
  /** Parts of the request sent one after another, `pauseMs` apart (a slow client). */
  parts?: (string | Buffer)[];
  pauseMs?: number;
  /** Give up (and fail) after this long without a complete answer. */
  timeoutMs?: number;
}

/** Parses a response that ends with the connection: status line, headers, then the rest. */
function parse(raw: Buffer, partsSent: number): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response head in ${JSON.stringify(raw.toString('latin1'))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  let json: unknown;
  try {
    json = body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status, headers, body, json, partsSent };
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/**
 * Sends bytes exactly as given on a fresh connection and reads until the server closes it (every
 * request here says `Connection: close`, and refusals before routing close anyway). Nothing is
 * normalised: this is how malformed HTTP reaches the server.
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  options: RawOptions = {},
): Promise<RawAnswer> {
  const parts = options.parts ?? [request];
  return new Promise<RawAnswer>((resolve, reject) => {
    let partsSent = 0;
    const chunks: Buffer[] = [];
    const socket: Socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parse(Buffer.concat(chunks), partsSent));
      } catch (error) {
        reject(error);
      }
    });
    socket.once('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (socket.destroyed) return;
        if (index > 0 && options.pauseMs) await new Promise((done) => setTimeout(done, options.pauseMs));
        socket.write(part);
        partsSent++;
      }
    });
  });
}

/** A request head with `Host` and `Connection: close` unless the headers say otherwise. */
export function head(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  port: number,
) {
  const all: Record<string, string | undefined> = {
    host: `127.0.0.1:${port}`,
    connection: 'close',
    ...headers,
  };
  const lines = Object.entries(all).flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}: ${value}`],
  );
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** A complete request: head plus body, with its exact Content-Length unless one is given. */
export function withBody(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  body: string | Buffer,
  port: number,
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([
    Buffer.from(head(method, path, { 'content-length': String(bytes.length), ...headers }, port), 'latin1'),
    bytes,
  ]);
}

/** Opens a connection and keeps it, for tests that hold connections open. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}
