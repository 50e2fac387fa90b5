import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { duplicateKeyOf } from './duplicate-key.js';

/**
 * How deep a request body's arrays and objects may nest. Every body we accept is a few levels deep
 * (a JSON-RPC envelope around a tool input, a hub message with a page's intent schemas); a bound
 * checked before parsing keeps the work of every later step (parsing, schema validation, canonical
 * JSON) proportional to the body's size, never to its depth.
 */
export const BODY_DEPTH_MAX = 64;

const unreadable = Symbol.for('diosc.unreadable-body');

/**
 * A body that is not one UTF-8 JSON text: malformed, empty where a value is needed, invalid UTF-8,
 * preceded by a byte-order mark, nested deeper than `BODY_DEPTH_MAX`, naming one field twice in an
 * object — or a text that is not a message at all (`null`, a number, a string, a boolean). It is
 * `invalid_input` on every entry; `/mcp` answers it as a JSON-RPC error instead: a parse error
 * (-32700), or Invalid Request (-32600) for valid JSON that is no message (`rpcCode`). Branded like
 * every Diosc error.
 */
export class UnreadableBody extends DioscError {
  readonly [unreadable] = true;
  readonly rpcCode: -32700 | -32600;

  constructor(message: string, rpcCode: -32700 | -32600 = -32700) {
    super('invalid_input', message);
    this.rpcCode = rpcCode;
  }

  static is(value: unknown): value is UnreadableBody {
    return DioscError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[unreadable] === true;
  }
}

/** True when `text` opens more than `max` arrays/objects at once (strings are skipped, escapes too). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * The one body parser of the whole server (owner API, browser access, `/mcp`, the hub): only
 * `application/json` in UTF-8 (RFC 8259 §8.1), anything else is 415 `unsupported_media_type`.
 * A byte-order mark is refused rather than skipped — RFC 8259 lets a parser ignore one, but no
 * client of ours sends it and accepting it on one entry and not another would be two rules.
 * An empty body reads as `undefined`, so a bodiless POST or DELETE that names the type still works;
 * each route decides whether it needs a body. `__proto__` keys, and `constructor` keys that hold a
 * `prototype` (what pollutes), are refused; a plain `constructor` field is a name like any other.
 * A name given twice in one object is refused at any depth (the last would silently win), and so is
 * a body that is not an object or an array: every body of ours is one, and a `null` read as "no
 * body" would let a route skip its checks.
 */
export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new DioscError('unsupported_media_type', 'JSON bodies are read as UTF-8 only.'), undefined);
      return;
    }
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(null, undefined);
      return;
    }
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      done(new UnreadableBody('The body starts with a byte-order mark; send plain UTF-8 JSON.'), undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      done(new UnreadableBody('The body is not valid UTF-8.'), undefined);
      return;
    }
    if (nestsDeeperThan(text, BODY_DEPTH_MAX)) {
      done(new UnreadableBody(`The body nests deeper than ${BODY_DEPTH_MAX} levels.`), undefined);
      return;
    }
    parse(request, text, (error, value) => {
      if (error) {
        done(new UnreadableBody('The request body is not valid JSON.'), undefined);
        return;
      }
      if (value === null || typeof value !== 'object') {
        done(new UnreadableBody('The request body must be a JSON object.', -32600), undefined);
        return;
      }
      const duplicate = duplicateKeyOf(text);
      if (duplicate !== undefined) {
        done(new UnreadableBody(`The body names the field "${duplicate}" twice in one object.`), undefined);
        return;
      }
      done(null, value);
    });
  });
}
