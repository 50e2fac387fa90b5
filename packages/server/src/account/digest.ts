import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal values always serialize alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
      return sorted;
    }
    return inner;
  });
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The digest that binds a receipt to its exact input. */
export function inputDigest(functionName: string, input: unknown): string {
  return sha256Hex(`${functionName}\n${canonicalJson(input)}`);
}
