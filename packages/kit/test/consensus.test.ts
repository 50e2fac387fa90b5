// @vitest-environment happy-dom

import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { ApprovalGuard } from '../src/consensus/approval-guard.js';
import { type ApprovalRequest, createConsensusBroker } from '../src/consensus/consensus-broker.js';
import { readEdit, renderEditForm } from '../src/consensus/edit-form.js';
import { checkSchema } from '../src/consensus/schema-check.js';
import { createTranslator } from '../src/i18n/translator.js';

const request = (id: string): ApprovalRequest => ({
  id,
  source: 'intent',
  tool: 'apply',
  severity: 'low',
  summary: `Request ${id}`,
  diff: [],
  args: {},
  schema: { type: 'object' },
});

describe('the consensus broker', () => {
  it('shows one request at a time; Escape hides without deciding; Review shows it again; withdrawal removes it', async () => {
    const broker = createConsensusBroker();
    const withdraw = new AbortController();
    const first = broker.ask(request('a'));
    const second = broker.ask(request('b'), withdraw.signal);
    expect(broker.shown.get()?.id).toBe('a');
    broker.dismiss();
    expect(broker.shown.get()?.id).toBe('b');
    expect(broker.pending.get().map((r) => r.id)).toEqual(['a', 'b']);
    withdraw.abort(new Error('timed out'));
    await expect(second).rejects.toThrow('timed out');
    expect(broker.shown.get()).toBeNull();
    broker.reopen('a');
    expect(broker.shown.get()?.id).toBe('a');
    broker.decide('a', { outcome: 'approve' });
    await expect(first).resolves.toEqual({ outcome: 'approve' });
    expect(broker.pending.get()).toEqual([]);
    // A decision for something no longer pending does nothing.
    broker.decide('a', { outcome: 'reject' });
  });
});

describe('the trusted-input guard', () => {
  it('refuses every scripted path: untrusted events never arm it, so no submit approves', () => {
    const guard = new ApprovalGuard();
    const form = document.createElement('form');
    const button = document.createElement('button');
    form.append(button);
    document.body.append(form);
    guard.input(new PointerEvent('pointerdown'), 1);
    guard.input(new KeyboardEvent('keydown', { key: 'Enter' }), 1);
    guard.click(new MouseEvent('click'), 1);
    const submit = new SubmitEvent('submit', { submitter: button });
    expect(submit.isTrusted).not.toBe(true);
    expect(guard.approves(submit, button, 1)).toBe(false);
  });
});

describe('Edit: the generated form and the schema check', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['title'],
    properties: {
      title: { type: 'string', minLength: 3 },
      count: { type: 'integer', minimum: 0 },
      tone: { enum: ['calm', 'bold'] },
      pinned: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };
  const t = createTranslator('en').t;

  function form(args: Record<string, unknown>) {
    const element = document.createElement('form');
    render(renderEditForm(schema, args, t), element);
    return element;
  }

  it('fills simple types into inputs and the rest into a JSON editor, and reads them back with what changed', () => {
    const element = form({ title: 'Plan', count: 2, tone: 'calm', tags: ['a'] });
    expect([...element.querySelectorAll('label')].map((label) => label.textContent)).toEqual([
      'title *',
      'count',
      'tone',
      'pinned',
      'tags (JSON)',
    ]);
    (element.elements.namedItem('arg:title') as HTMLInputElement).value = 'Q3 plan';
    (element.elements.namedItem('arg:tags') as HTMLTextAreaElement).value = '["a","b"]';
    (element.elements.namedItem('arg:tone') as HTMLSelectElement).value = 'bold';
    expect(readEdit(element, schema, { title: 'Plan', count: 2, tone: 'calm', tags: ['a'] }, t)).toEqual({
      args: { title: 'Q3 plan', count: 2, tone: 'bold', pinned: false, tags: ['a', 'b'] },
      changed: ['title', 'tone', 'tags', 'pinned'],
    });
  });

  it('refuses values the schema does not allow, before anything runs', () => {
    const element = form({ title: 'Plan' });
    (element.elements.namedItem('arg:title') as HTMLInputElement).value = 'ab';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({
      error: 'Not valid: arguments.title needs at least 3 characters',
    });
    (element.elements.namedItem('arg:title') as HTMLInputElement).value = 'Fine';
    (element.elements.namedItem('arg:tags') as HTMLTextAreaElement).value = '[1,';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({ error: 'tags is not valid JSON' });
    (element.elements.namedItem('arg:tags') as HTMLTextAreaElement).value = '[1]';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({
      error: 'Not valid: arguments.tags[0] must be string',
    });
  });

  it('checks the keywords tool schemas use', () => {
    expect(checkSchema(schema, { title: 'abc', extra: 1 })).toBe('arguments.extra is not allowed');
    expect(checkSchema(schema, {})).toBe('arguments.title is required');
    expect(checkSchema(schema, { title: 'abc', count: 1.5 })).toBe('arguments.count must be integer');
    expect(checkSchema(schema, { title: 'abc', count: -1 })).toBe('arguments.count must be ≥ 0');
    expect(checkSchema(schema, { title: 'abc', tone: 'loud' })).toBe(
      'arguments.tone must be one of "calm", "bold"',
    );
    expect(checkSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toBe(
      'arguments matches none of the allowed forms',
    );
    expect(checkSchema({ type: 'string', pattern: '^[a-z]+$' }, 'ABC')).toBe('arguments must match ^[a-z]+$');
    expect(checkSchema(schema, { title: 'abc', count: 0, tone: 'bold', pinned: true, tags: [] })).toBeNull();
  });
});
