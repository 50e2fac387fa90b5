import { hostname } from 'node:os';

const INSTANCE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Which server process writes audit records (`DIOSC_INSTANCE_ID`): the operator's name for the
 * instance (letters, digits, `.`, `_`, `:` and `-`, at most 100), else `<host name>:<process id>` —
 * stable for the life of the process, and never a secret.
 */
export function instanceIdSetting(value: unknown): string {
  if (value === undefined) return `${hostname().slice(0, 80)}:${process.pid}`;
  const given = String(value);
  if (!INSTANCE_ID.test(given))
    throw new Error('Invalid DIOSC_INSTANCE_ID: use at most 100 letters, digits, ".", "_", ":" or "-".');
  return given;
}
