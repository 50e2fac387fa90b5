/**
 * The one table of error codes every Diosc package speaks. A code is stable API: clients branch on it,
 * the docs list it (`docs/errors.md`), and a test keeps the two in step.
 */
export const ERROR_CODES = {
  invalid_input: { status: 400, retryable: false, message: 'The input does not match the tool schema.' },
  unsupported_input: {
    status: 422,
    retryable: false,
    message: 'The input is valid JSON but this collection does not support it.',
  },
  unknown_tool: { status: 404, retryable: false, message: 'There is no such tool.' },
  not_granted: {
    status: 403,
    retryable: false,
    message: 'This caller is not granted that collection or function.',
  },
  not_found: { status: 404, retryable: false, message: 'There is no such collection or item.' },
  unavailable: {
    status: 405,
    retryable: false,
    message: 'This function is not available on this collection.',
  },
  source_revoked: {
    status: 410,
    retryable: false,
    message: 'The provider source of this collection has been disconnected.',
  },
  precondition_failed: {
    status: 412,
    retryable: false,
    message: 'The item changed since the given version.',
  },
  request_id_collision: {
    status: 409,
    retryable: false,
    message: 'This request ID was already used with different input.',
  },
  in_flight: { status: 409, retryable: true, message: 'A request with this ID is still being processed.' },
  quota_exceeded: { status: 429, retryable: false, message: 'The account quota would be exceeded.' },
  rate_limited: { status: 429, retryable: true, message: 'Too many calls; slow down.' },
  busy: { status: 503, retryable: true, message: 'The account is busy; retry shortly.' },
  too_large: { status: 413, retryable: false, message: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    message: 'Only application/json bodies are accepted.',
  },
  headers_too_large: {
    status: 431,
    retryable: false,
    message: 'The request line or headers are over the server limit.',
  },
  uri_too_long: {
    status: 414,
    retryable: false,
    message: 'A path segment is longer than any name it could hold.',
  },
  request_timeout: {
    status: 408,
    retryable: true,
    message: 'The request did not arrive in time; the connection was closed.',
  },
  unknown_host: { status: 421, retryable: false, message: 'This server does not answer to that host name.' },
  unauthenticated: { status: 401, retryable: false, message: 'Authentication is required.' },
  invalid_credentials: { status: 401, retryable: false, message: 'The email or password is wrong.' },
  session_expired: { status: 401, retryable: false, message: 'The session has ended; sign in again.' },
  forbidden_origin: { status: 403, retryable: false, message: 'The request origin is not allowed.' },
  csrf_failed: { status: 403, retryable: false, message: 'The CSRF token is missing or wrong.' },
  cross_site: { status: 403, retryable: false, message: 'Cross-site requests are refused.' },
  not_enabled: { status: 403, retryable: false, message: 'Browser tools are not enabled for this session.' },
  feature_disabled: {
    status: 403,
    retryable: false,
    message: 'The operator of this server has not turned browser tools on.',
  },
  selection_invalid: {
    status: 400,
    retryable: false,
    message: 'The selection names a collection or function that is not available.',
  },
  generation_changed: {
    status: 409,
    retryable: false,
    message: 'The browser-tools selection changed; reload the tools before calling again.',
  },
  receipt_expired: { status: 410, retryable: false, message: 'The review receipt has expired.' },
  receipt_mismatch: {
    status: 409,
    retryable: false,
    message: 'The review receipt does not match this request.',
  },
  receipt_used: { status: 409, retryable: false, message: 'The review receipt was already used.' },
  review_required: {
    status: 409,
    retryable: false,
    message: 'The change has not been reviewed and accepted.',
  },
  revoked: { status: 401, retryable: false, message: 'This connection has been revoked.' },
  cancelled: {
    status: 499,
    retryable: false,
    message: 'The request was cancelled before it was dispatched.',
  },
  uncertain: {
    status: 504,
    retryable: false,
    message:
      'The request was cancelled after dispatch; it may have committed. Check the receipt; do not retry under a new request ID.',
  },
  declined: { status: 409, retryable: false, message: 'The change was declined by the user.' },
  unknown_assistant: {
    status: 401,
    retryable: false,
    message: 'There is no assistant with that publishable key.',
  },
  origin_not_allowed: {
    status: 403,
    retryable: false,
    message: 'This page origin is not allowed to use the assistant.',
  },
  identity_invalid: {
    status: 401,
    retryable: false,
    message: 'The signed visitor identity could not be verified.',
  },
  turn_in_progress: {
    status: 409,
    retryable: true,
    message: 'A turn is still running in this conversation; wait for it or cancel it.',
  },
  turn_not_active: { status: 409, retryable: false, message: 'The turn has already ended.' },
  interrupt_not_pending: {
    status: 409,
    retryable: false,
    message: 'That interrupt is not waiting for an answer.',
  },
  result_conflict: {
    status: 409,
    retryable: false,
    message: 'This interrupt was already answered with a different result.',
  },
  consensus_not_pending: {
    status: 409,
    retryable: false,
    message: 'That approval request is not waiting for a decision.',
  },
  decision_mismatch: {
    status: 409,
    retryable: false,
    message: 'The decision does not match the exact arguments under review.',
  },
  history_mismatch: {
    status: 409,
    retryable: false,
    message: 'The history sent does not match the conversation the hub keeps; nothing was changed.',
  },
  path_not_in_sitemap: {
    status: 400,
    retryable: false,
    message: "The path is not one of the assistant's Sitemap routes.",
  },
  tool_not_offered: {
    status: 400,
    retryable: false,
    message: 'That tool is not offered to the model in this turn.',
  },
  interrupt_timed_out: {
    status: 408,
    retryable: false,
    message: 'The page did not answer the browser tool in time.',
  },
  model_failed: {
    status: 502,
    retryable: true,
    message: 'The model provider failed or could not be reached.',
  },
  // Asking again cannot help until an owner changes the assistant or the server's environment.
  model_not_configured: {
    status: 503,
    retryable: false,
    message: "The assistant's model is not configured on this server.",
  },
  tool_failed: { status: 502, retryable: false, message: 'The server tool failed.' },
  files_not_enabled: {
    status: 403,
    retryable: false,
    message: 'This assistant does not accept files from visitors.',
  },
  file_too_large: {
    status: 413,
    retryable: false,
    message: "The file is larger than the assistant's per-file cap.",
  },
  file_quota_exceeded: {
    status: 413,
    retryable: false,
    message: 'The file would exceed the storage quota of this conversation, visitor or assistant.',
  },
  file_type_not_allowed: {
    status: 415,
    retryable: false,
    message: 'Files of this type are not accepted by this assistant.',
  },
  file_type_mismatch: {
    status: 422,
    retryable: false,
    message: 'The file content does not match its declared type.',
  },
  file_expired: { status: 410, retryable: false, message: 'The file is past its retention period.' },
  range_not_satisfiable: {
    status: 416,
    retryable: false,
    message: 'The requested byte range is outside the file.',
  },
  file_storage_failed: { status: 503, retryable: true, message: 'The file could not be stored; try again.' },
  fetch_refused: {
    status: 403,
    retryable: false,
    message: 'The server does not fetch from that address.',
  },
  fetch_failed: {
    status: 502,
    retryable: true,
    message: 'The address could not be fetched.',
  },
  event_id_ahead: {
    status: 409,
    retryable: false,
    message: 'The Last-Event-ID is past the newest event of this conversation.',
  },
  too_many_open: {
    status: 429,
    retryable: true,
    message:
      'This visitor already holds its maximum of open streams or requests; close one or retry shortly.',
  },
  not_ready: {
    status: 503,
    retryable: true,
    message: 'The server cannot serve requests yet: its store is unreachable or not migrated.',
  },
  internal: { status: 500, retryable: true, message: 'Something went wrong on the server.' },
} as const satisfies Record<string, { status: number; retryable: boolean; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorCodes = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
