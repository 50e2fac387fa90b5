import { isPlainObject } from '../json/plain-object.js';
import type { InterruptAnswer } from './interrupts.js';

/**
 * A string that is a `data:` URL (media type, parameters, the comma before the payload), or that
 * holds a base64 one anywhere (pasted into an error message or an HTML fragment, say).
 */
const DATA_URL = /^\s*data:[a-z0-9!#$&^_.+-]*(\/[a-z0-9!#$&^_.+-]+)?(;[^,]*)?,|\bdata:[^,\s"']*;base64,/i;

function dataUrlAt(value: unknown, at: string): string | null {
  if (typeof value === 'string') return DATA_URL.test(value) ? at : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = dataUrlAt(value[i], `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (isPlainObject(value))
    for (const [key, inner] of Object.entries(value)) {
      const found = dataUrlAt(inner, `${at}.${key}`);
      if (found) return found;
    }
  return null;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Why a page's answer would put file bytes, or a file descriptor the hub did not issue, before the
 * model — or null. The hub (and the kit's fake hub, held to it) decides this itself rather than
 * trusting the kit: a result's `file` must
 * be the very descriptor the answer names in its own `file` (which the hub then swaps for its
 * stored one), and no `data:` URL rides anywhere in a result or an error.
 */
export function answerBytesProblem(answer: InterruptAnswer): string | null {
  if ('error' in answer) {
    return dataUrlAt(answer.error, 'error')
      ? 'The error carries a data: URL; files travel through the file upload, never in an answer.'
      : null;
  }
  const { result } = answer;
  if (
    isPlainObject(result) &&
    Object.hasOwn(result, 'file') &&
    !(answer.file && sameJson(result.file, answer.file))
  )
    return "The result's `file` is not a file the hub issued: upload the file for this interrupt and name its descriptor in the answer's `file`.";
  const at = dataUrlAt(result, 'result');
  return at
    ? `The answer carries a data: URL at ${at}; files travel through the file upload, never in an answer.`
    : null;
}
