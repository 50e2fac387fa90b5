import type { InterruptAnswer } from './interrupts.js';

/**
 * What a page's answer means for the tool row the widget shows: `declined` when the person rejected
 * the intent, `error` when it failed — an `error` answer, or a result the page marked
 * `success: false` — and done otherwise. One function, so the hub and the fake hub say the same.
 *
 * @example answerOutcome({ result: { success: false, error: 'Declined' }, decision: { decision: 'reject' } })
 * // → { ok: false, summary: 'declined' }
 */
export function answerOutcome(answer: InterruptAnswer): { ok: boolean; summary?: 'declined' | 'error' } {
  if (answer.decision?.decision === 'reject') return { ok: false, summary: 'declined' };
  if ('error' in answer) return { ok: false, summary: 'error' };
  const result = answer.result as { success?: unknown } | null;
  return typeof result === 'object' && result?.success === false
    ? { ok: false, summary: 'error' }
    : { ok: true };
}
