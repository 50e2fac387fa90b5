import type { Socket } from 'node:net';
import type { ErrorCode } from '@diosc/protocol';
import { writeRawError } from './raw-reply.js';
import { isDraining } from './unread-body.js';

/** Node's `clientError` codes (llhttp's `HPE_*` and the server's own timeouts) → our codes. */
function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'request_timeout';
    case 'HPE_HEADER_OVERFLOW':
      return 'headers_too_large';
    default:
      return 'invalid_input';
  }
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_input: 'The request is not well-formed HTTP/1.1.',
};

/**
 * Fastify's `clientErrorHandler`: a request Node could not read — malformed, headers over the
 * limit, or not complete within the request timeout — gets the documented `{ error }` reply instead
 * of Fastify's own shape, and the connection closes. A reset connection has no one to answer.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Answered already, its body's rest being dropped (`unread-body.ts`): a second answer would be
  // read as the answer to the client's next request.
  if (isDraining(socket)) {
    socket.destroy();
    return;
  }
  // An answer already under way on this connection (a keep-alive response being written) cannot be
  // followed by another one in the middle: then the connection just closes, as Node itself does.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (current?.headersSent) {
    socket.destroy();
    return;
  }
  const code = codeOf(error);
  writeRawError(socket, code, MESSAGES[code]);
}
