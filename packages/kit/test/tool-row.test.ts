// @vitest-environment happy-dom
import { answerOutcome, declinedMessage, type ToolActivity } from '@diosc/protocol';
import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../src/i18n/translator.js';
import { toolRow } from '../src/widget/message-view.js';

function row(tool: Partial<ToolActivity>, locale: 'en' | 'es' = 'en'): HTMLElement {
  const host = document.createElement('ul');
  const activity = {
    toolCallId: 'c1',
    tool: 'browser_apply_changes',
    where: 'browser',
    ok: null,
    ...tool,
  } as const;
  render(toolRow(activity, createTranslator(locale)), host);
  return host.querySelector('li')!;
}

describe('a tool row says what happened (issue 30, item 11)', () => {
  it('a rejected intent is declined — in words, not as done', () => {
    // The very answer the kit sends when the person rejects an intent in the dialog.
    const outcome = answerOutcome({
      result: { success: false, error: declinedMessage() },
      decision: { decision: 'reject' },
    });
    expect(outcome).toEqual({ ok: false, summary: 'declined' });
    const declined = row(outcome);
    expect(declined.textContent).toContain('browser_apply_changes — declined');
    expect(declined.textContent).not.toContain('done');
    expect(declined.textContent).not.toContain('✓');
    expect(row(outcome, 'es').textContent).toContain('browser_apply_changes: rechazado');
  });

  it('a result the page marked success: false, or an error, is failed', () => {
    expect(answerOutcome({ result: { success: false, error: 'Row 42 not found' } })).toEqual({
      ok: false,
      summary: 'error',
    });
    expect(answerOutcome({ error: 'boom' })).toEqual({ ok: false, summary: 'error' });
    expect(row({ ok: false, summary: 'error' }).textContent).toContain('browser_apply_changes — failed');
  });

  it('anything else is done', () => {
    expect(answerOutcome({ result: { highlighted: '42' }, decision: { decision: 'approve' } })).toEqual({
      ok: true,
    });
    expect(answerOutcome({ result: null })).toEqual({ ok: true });
    expect(row({ ok: true }).textContent).toContain('browser_apply_changes — done');
  });
});
