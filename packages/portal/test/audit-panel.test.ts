// @vitest-environment happy-dom

import type { AssistantView, AuditPage, AuditRecordView } from '@diosc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Portal } from '../src/app/portal.js';
import type { AuditFilter } from '../src/assistants/assistants-api.js';
import type { AuditPanel } from '../src/assistants/audit-panel.js';
import { initI18n } from '../src/i18n/i18n.js';
import '../src/assistants/audit-panel.js';

const HOSTILE = '<img src=x onerror="globalThis.pwned=1">';

function record(overrides: Partial<AuditRecordView>): AuditRecordView {
  return {
    id: 'aud_1',
    at: '2026-12-05T10:00:00.000Z',
    kind: 'consensus_decision',
    assistantId: 'ast_1',
    actor: { kind: 'identified_user', id: 'user:user-17' },
    subject: 'item_write',
    argsDigest: 'a'.repeat(64),
    editedFields: [],
    outcome: 'approve',
    instance: 'hub-a:41',
    ...overrides,
  };
}

/** A portal whose audit answers the given pages in turn, recording each filter it was asked. */
function fakePortal(pages: AuditPage[]) {
  const asked: AuditFilter[] = [];
  const portal = {
    assistants: {
      audit: async (_id: string, filter: AuditFilter) => {
        asked.push(filter);
        return pages[Math.min(asked.length - 1, pages.length - 1)]!;
      },
    },
  } as unknown as Portal;
  return { portal, asked };
}

async function settled(panel: AuditPanel): Promise<void> {
  // The load is a promise the element starts itself: let it resolve, then let Lit render.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await panel.updateComplete;
}

describe('the audit panel', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('shows who, what, when, the outcome and the instance of each record, as text', async () => {
    const { portal, asked } = fakePortal([
      {
        records: [
          record({ id: 'aud_2', outcome: 'edit', editedFields: ['content', 'title'] }),
          record({
            id: 'aud_1',
            kind: 'grant_change',
            assistantId: null,
            actor: { kind: 'owner', id: 'acc_1' },
            subject: HOSTILE,
            argsDigest: null,
            outcome: 'revoked',
          }),
        ],
        more: false,
      },
    ]);
    const panel = document.createElement('diosc-audit-panel');
    Object.assign(panel, { portal, assistant: { id: 'ast_1' } as AssistantView });
    document.body.append(panel);
    await settled(panel);
    const root = panel.shadowRoot!;
    expect(asked).toEqual([{ since: '7d' }]);
    const rows = [...root.querySelectorAll('tr[data-audit]')];
    expect(rows.map((row) => row.getAttribute('data-audit'))).toEqual(['aud_2', 'aud_1']);
    const first = rows[0]!.textContent!.replace(/\s+/g, ' ');
    expect(first).toContain('Signed-in user');
    expect(first).toContain('user:user-17');
    expect(first).toContain('Approval decision: item_write');
    expect(first).toContain('Edited fields: content, title');
    expect(first).toContain('Edited');
    expect(first).toContain('hub-a:41');
    expect(first).toContain('aaaaaaaaaaaa…');
    const second = rows[1]!.textContent!.replace(/\s+/g, ' ');
    expect(second).toContain('Owner');
    expect(second).toContain('Revoked');
    expect(second).toContain('Account-wide');
    expect(rows[1]!.querySelector('[data-subject]')!.textContent).toBe(HOSTILE);
    expect(root.querySelector('img')).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(root.querySelector('#audit-older')).toBeNull();
    panel.remove();
  });

  it('asks again with the chosen filter, and pages back from the oldest record shown', async () => {
    const older = record({ id: 'aud_0', at: '2026-12-01T09:00:00.000Z', outcome: 'reject' });
    const { portal, asked } = fakePortal([
      { records: [record({})], more: true },
      { records: [record({})], more: true },
      { records: [record({})], more: true },
      { records: [older], more: false },
    ]);
    const panel = document.createElement('diosc-audit-panel');
    Object.assign(panel, { portal, assistant: { id: 'ast_1' } as AssistantView });
    document.body.append(panel);
    await settled(panel);
    const root = panel.shadowRoot!;
    const choose = async (id: string, value: string) => {
      const select = root.querySelector<HTMLSelectElement>(`#${id}`)!;
      select.value = value;
      select.dispatchEvent(new Event('change'));
      await settled(panel);
    };
    await choose('audit-kind', 'consensus_decision');
    await choose('audit-period', '');
    expect(asked.slice(1)).toEqual([
      { kind: 'consensus_decision', since: '7d' },
      { kind: 'consensus_decision' },
    ]);
    root.querySelector<HTMLButtonElement>('#audit-older')!.click();
    await settled(panel);
    expect(asked.at(-1)).toEqual({ kind: 'consensus_decision', before: 'aud_1' });
    expect([...root.querySelectorAll('tr[data-audit]')].map((row) => row.getAttribute('data-audit'))).toEqual(
      ['aud_1', 'aud_0'],
    );
    expect(root.querySelector('#audit-older')).toBeNull();
    panel.remove();
  });
});
