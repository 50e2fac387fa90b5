import { DioscError, ERROR_CODES, type ErrorCode } from '@diosc/protocol';

/** A refusal exactly as the hub sends one: the table's status and `{ error: { code, message, retryable } }`. */
export function refusal(code: ErrorCode, message?: string): Response {
  return refusalOf(new DioscError(code, message));
}

/** A thrown refusal as the hub sends it, its details included. */
export function refusalOf(error: DioscError): Response {
  return Response.json(
    { error: error.toWire() },
    { status: ERROR_CODES[error.code].status, headers: { 'cache-control': 'no-store' } },
  );
}

/** A JSON reply, never cached, as every hub reply. */
export const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
