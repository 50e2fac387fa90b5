import { DioscError, ERROR_CODES, type ErrorCode } from '@diosc/protocol';

/** A refusal exactly as the hub sends one: the table's status and `{ error: { code, message, retryable } }`. */
export function refusal(code: ErrorCode, message?: string): Response {
  const error = new DioscError(code, message);
  return Response.json(
    { error: error.toWire() },
    { status: ERROR_CODES[code].status, headers: { 'cache-control': 'no-store' } },
  );
}

/** A JSON reply, never cached, as every hub reply. */
export const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
