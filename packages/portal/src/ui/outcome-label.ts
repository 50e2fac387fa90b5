import { hasKey, t } from '../i18n/i18n.js';

/** A refusal code's short name in the owner's language ("Not granted"), or the code if unnamed. */
export function codeName(code: string): string {
  const key = `automation.activity.codes.${code}`;
  return hasKey(key) ? t(key) : code;
}

/**
 * Every outcome in words, in the owner's language: the ones this page names (done, replayed,
 * rejected…) and every refusal by its code's short name ("Refused: Not granted"); the code's full
 * sentence is the tooltip. A catalogue test keeps a short name for every code in both languages.
 */
export function outcomeLabel(outcome: string, code: string | null): string {
  const named = `automation.activity.outcomes.${outcome}`;
  // A page-only refusal carries its code; a server row's refusal is the code itself.
  const reason = outcome === 'refused' || outcome === 'error' ? code : hasKey(named) ? null : outcome;
  if (reason === null) return t(named);
  return t('automation.activity.refusedWith', { reason: codeName(reason) });
}
