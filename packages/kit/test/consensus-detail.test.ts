// @vitest-environment happy-dom
import { render } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../src/consensus/consensus-broker.js';
import { cellText, consensusDetail } from '../src/consensus/consensus-detail.js';
import { createTranslator } from '../src/i18n/translator.js';
import { createKitContext } from '../src/kit-context.js';

afterEach(() => vi.restoreAllMocks());

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'a',
  source: 'server',
  tool: 'publish',
  severity: 'medium',
  summary: 'Publish',
  diff: [],
  args: { slug: 'a', tags: ['x'], draft: undefined },
  schema: {},
  ...overrides,
});

function shown(
  overrides: Partial<ApprovalRequest> = {},
  setup?: (kit: ReturnType<typeof createKitContext>) => void,
) {
  const kit = createKitContext();
  kit.translator = createTranslator('en');
  setup?.(kit);
  const host = document.createElement('div');
  render(consensusDetail(kit, request(overrides)), host);
  return host;
}

const rows = (host: HTMLElement) =>
  [...host.querySelectorAll('tr')].map((row) => [...row.children].map((cell) => cell.textContent));

function captureErrors() {
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation(
    (...args: unknown[]) => void errors.push(args.map(String).join(' ')),
  );
  return errors;
}

describe('the consensus detail', () => {
  it('cellText: strings as they are, undefined as a dash, the rest as compact JSON, never throwing', () => {
    expect(cellText('<b>x</b>')).toBe('<b>x</b>');
    expect(cellText(undefined)).toBe('—');
    expect(cellText(null)).toBe('null');
    expect(cellText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(cellText(3)).toBe('3');
    // JSON.stringify throws on a BigInt: the cell falls back to its text.
    expect(cellText(10n)).toBe('10');
  });

  it('without a diff: a table of the arguments', () => {
    const errors = captureErrors();
    const host = shown();
    // No view for the tool: nothing is called, nothing reported.
    expect(errors).toEqual([]);
    expect(rows(host)).toEqual([
      ['Argument', 'Value'],
      ['slug', 'a'],
      ['tags', '["x"]'],
      ['draft', '—'],
    ]);
    expect([...host.querySelectorAll('th[scope="row"]')].map((cell) => cell.textContent)).toEqual([
      'slug',
      'tags',
      'draft',
    ]);
  });

  it('with a diff: before and after for each field, as text only', () => {
    const host = shown({
      diff: [
        { field: 'title', current: 'Old', next: '<img src=x onerror=alert(1)>' },
        { field: 'count', current: 1, next: undefined },
      ],
    });
    expect(rows(host)).toEqual([
      ['Field', 'Now', 'Proposed'],
      ['title', 'Old', '<img src=x onerror=alert(1)>'],
      ['count', '1', '—'],
    ]);
    expect(host.querySelector('img')).toBeNull();
    expect([...host.querySelectorAll('td.before')].map((cell) => cell.textContent)).toEqual(['Old', '1']);
    expect([...host.querySelectorAll('td.after')].map((cell) => cell.textContent)).toEqual([
      '<img src=x onerror=alert(1)>',
      '—',
    ]);
  });

  it('a consensusView for the tool replaces the body: a Node as it is, a string as text', () => {
    const node = shown({}, (kit) =>
      kit.views.set('publish', ({ tool, severity, summary, args }) => {
        const p = document.createElement('p');
        p.className = 'host';
        p.textContent = `${tool}/${severity}/${summary}/${String(args.slug)}`;
        return p;
      }),
    );
    expect(node.querySelector('p.host')?.textContent).toBe('publish/medium/Publish/a');
    expect(node.querySelector('table')).toBeNull();
    const text = shown({}, (kit) => kit.views.set('publish', () => '<b>bold?</b>'));
    expect(text.textContent).toBe('<b>bold?</b>');
    expect(text.querySelector('b')).toBeNull();
    // A view for another tool changes nothing here.
    const other = shown({}, (kit) => kit.views.set('other', () => 'nope'));
    expect(other.querySelector('table')).not.toBeNull();
  });

  it('the view gets copies: changing them cannot change what is decided', () => {
    const original = request({ diff: [{ field: 'f', current: 1, next: 2 }] });
    const kit = createKitContext();
    kit.translator = createTranslator('en');
    kit.views.set('publish', (detail) => {
      (detail.args as Record<string, unknown>).slug = 'evil';
      (detail.diff[0] as { next: unknown }).next = 'evil';
      return 'ok';
    });
    consensusDetail(kit, original);
    expect(original.args.slug).toBe('a');
    expect(original.diff[0]?.next).toBe(2);
  });

  it('a view that throws or returns something else falls back to the table and says so', () => {
    const errors = captureErrors();
    const thrown = shown({}, (kit) =>
      kit.views.set('publish', () => {
        throw new Error('boom');
      }),
    );
    expect(rows(thrown)[0]).toEqual(['Argument', 'Value']);
    const wrong = shown({}, (kit) => kit.views.set('publish', () => 42 as unknown as string));
    expect(rows(wrong)[0]).toEqual(['Argument', 'Value']);
    expect(errors).toEqual([
      '[diosc] consensusView "publish" threw Error: boom',
      '[diosc] consensusView "publish" must return a Node or a string',
    ]);
  });
});
