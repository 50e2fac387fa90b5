import { isPlainObject } from '../json/plain-object.js';
import { ID_PATTERN, REQUEST_ID_PATTERN } from './schemas.js';

const requestIdPattern = new RegExp(REQUEST_ID_PATTERN);
const idPattern = new RegExp(ID_PATTERN);

function identifier(input: unknown, key: string, pattern: RegExp): string | undefined {
  const value = isPlainObject(input) ? input[key] : undefined;
  return typeof value === 'string' && pattern.test(value) ? value : undefined;
}

/**
 * The request ID a tool input names, if it is a well-formed one. Records and messages (usage rows,
 * activity entries, `uncertain` refusals) take identifiers only through these: never free text.
 */
export function requestIdOf(input: unknown): string | undefined {
  return identifier(input, 'requestId', requestIdPattern);
}

/** The collection a tool input names, if it is a well-formed ID. */
export function collectionOf(input: unknown): string | undefined {
  return identifier(input, 'collection', idPattern);
}
