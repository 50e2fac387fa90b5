import { createHash } from 'node:crypto';
import { canonicalJson } from '@diosc/protocol';
import type { ToolOutput } from '../store/tool-calls.js';

/** The digest a decision or an answer is bound to: SHA-256 of the canonical JSON. */
export function argsDigest(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

/** A refusal or failure as the model reads it: `code: message`. */
export function errorOutput(code: string, message: string): ToolOutput {
  return { type: 'error-text', value: `${code}: ${message}` };
}

/** How a call ended, as the page's tool row shows it: ok, or the code of what went wrong. */
export function outcomeOf(output: ToolOutput | null): { ok: boolean; summary?: string } {
  if (!output) return { ok: false };
  if (output.type === 'error-text') return { ok: false, summary: output.value.split(':')[0]?.slice(0, 64) };
  if (output.type === 'execution-denied') return { ok: false, summary: 'declined' };
  return { ok: true, summary: 'ok' };
}
