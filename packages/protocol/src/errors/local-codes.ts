/**
 * Codes of local errors: failures a browser package reports to its own caller, which never cross the
 * wire and so have no HTTP status. Stable like the wire codes of `codes.ts`; documented in
 * `docs/errors.md` ("Local errors"), and the same test keeps the two in step.
 */
export const LOCAL_ERROR_CODES = {
  transport_failed: { message: 'The browser could not reach the server.' },
  registration_failed: { message: 'Registering the tools with the browser failed.' },
  invalid_command: { message: 'A diosc() command was unknown or called with bad arguments.' },
  file_delivery_failed: { message: 'The file could not be uploaded or downloaded through the hub.' },
} as const satisfies Record<string, { message: string }>;

export type LocalErrorCode = keyof typeof LOCAL_ERROR_CODES;

export const localErrorCodes = Object.keys(LOCAL_ERROR_CODES) as LocalErrorCode[];

export function isLocalErrorCode(value: unknown): value is LocalErrorCode {
  return typeof value === 'string' && Object.hasOwn(LOCAL_ERROR_CODES, value);
}
