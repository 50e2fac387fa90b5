import { deepFreeze } from '@diosc/protocol';

/** A deep copy that nobody can edit afterwards: what the adapter invokes and what the reviewer sees. */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}
