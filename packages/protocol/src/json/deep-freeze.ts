/** Freezes a value and everything reachable from it, in place, and returns it (JSON data: no cycles). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
