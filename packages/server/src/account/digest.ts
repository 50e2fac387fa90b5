import { createHash } from 'node:crypto';
import { canonicalJson } from '@diosc/protocol';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The digest that binds a receipt to its exact input: SHA-256 of the name and canonical JSON. */
export function inputDigest(functionName: string, input: unknown): string {
  return sha256Hex(`${functionName}\n${canonicalJson(input)}`);
}
