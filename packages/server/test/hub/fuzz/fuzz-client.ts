import { ERROR_CODES, type ErrorCode } from '@diosc/protocol';
import { Pool } from 'undici';

export interface Shot {
  method: string;
  /** The path as sent, already percent-encoded (undici refuses raw non-ASCII, as HTTP does). */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The loopback address the request comes from (per-address rate limits see another client). */
  from?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Keep-alive HTTP to one server over loopback: one undici pool per source address. A stream
 * (`text/event-stream`) is read up to its headers and dropped, as a client that leaves would.
 */
export class FuzzClient {
  readonly #pools = new Map<string, Pool>();
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  #pool(from = '127.0.0.1'): Pool {
    let pool = this.#pools.get(from);
    if (!pool) {
      // Idle connections are dropped after a second, well before the server's keep-alive timeout
      // (10 s): otherwise a connection left idle while one class runs can be picked for a request
      // just as the server closes it — HTTP's keep-alive race, an ECONNRESET on a loaded machine.
      pool = new Pool(this.base, {
        connections: 4,
        localAddress: from,
        keepAliveTimeout: 1_000,
        keepAliveMaxTimeout: 1_000,
      });
      this.#pools.set(from, pool);
    }
    return pool;
  }

  async send(shot: Shot): Promise<Answer> {
    const response = await this.#pool(shot.from).request({
      method: shot.method as 'GET',
      path: shot.path,
      headers: shot.headers,
      body: shot.body,
      // Generous: on a loaded two-core machine an upload on PostgreSQL has taken over 10 s to answer.
      headersTimeout: 25_000,
      bodyTimeout: 25_000,
    });
    const type = String(response.headers['content-type'] ?? '');
    if (type.startsWith('text/event-stream')) {
      response.body.on('error', () => {}); // the abort we cause
      response.body.destroy();
      return { status: response.statusCode, headers: response.headers, text: '' };
    }
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.destroy()));
    this.#pools.clear();
  }
}

/**
 * Why an answer is not an acceptable reply to hostile input, or null: never a 5xx; a refusal is a
 * code of the one table, at that code's status, with a message and nothing else beside it.
 */
export function refusalProblem(answer: Answer, method: string): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400) return null;
  if (method === 'HEAD') return answer.text === '' ? null : 'a HEAD refusal with a body';
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json'))
    return `a ${answer.status} that is not JSON: ${answer.text.slice(0, 200)}`;
  let body: { error?: Record<string, unknown> };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return `a ${answer.status} whose body does not parse: ${answer.text.slice(0, 200)}`;
  }
  const error = body.error;
  const code = error?.code as ErrorCode | undefined;
  if (!error || typeof code !== 'string' || !(code in ERROR_CODES))
    return `not a code of the table: ${answer.text.slice(0, 200)}`;
  if (ERROR_CODES[code].status !== answer.status) return `${code} at ${answer.status}`;
  if (typeof error.message !== 'string' || error.message.trim() === '') return `${code} without a message`;
  if (error.retryable !== ERROR_CODES[code].retryable) return `${code} with retryable ${error.retryable}`;
  const extra = Object.keys(error).filter(
    (key) => !['code', 'message', 'retryable', 'retryAfterMs', 'details'].includes(key),
  );
  if (extra.length > 0) return `${code} with ${extra.join(', ')}`;
  if (Object.keys(body).length !== 1)
    return `a refusal with more than { error }: ${answer.text.slice(0, 200)}`;
  return null;
}

export function codeOf(answer: Answer): string | undefined {
  try {
    return (JSON.parse(answer.text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
