// @vitest-environment happy-dom
import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { editFields, readEdit, renderEditForm } from '../src/consensus/edit-form.js';
import { createTranslator } from '../src/i18n/translator.js';

const t = createTranslator('en').t;

function form(schema: Record<string, unknown>, args: Record<string, unknown>) {
  const element = document.createElement('form');
  render(renderEditForm(schema, args, t), element);
  document.body.append(element);
  return element;
}

const control = <E extends Element = HTMLInputElement>(element: HTMLFormElement, key: string) =>
  element.elements.namedItem(`arg:${key}`) as unknown as E;

describe('editFields: which schemas get a generated form', () => {
  it('an object schema (typed or not) gets one control per property whose schema is an object', () => {
    const fields = editFields({
      type: 'object',
      required: ['a', 'nope'],
      properties: {
        a: { type: 'string' },
        b: { type: 'number' },
        c: { type: 'integer' },
        d: { type: 'boolean' },
        e: { enum: ['x', 2] },
        f: { enum: ['x', null] },
        g: { type: 'array' },
        h: {},
        skipped: true,
      },
    });
    expect(fields?.map(({ key, kind, required }) => [key, kind, required])).toEqual([
      ['a', 'string', true],
      ['b', 'number', false],
      ['c', 'integer', false],
      ['d', 'boolean', false],
      ['e', 'enum', false],
      ['f', 'json', false],
      ['g', 'json', false],
      ['h', 'json', false],
    ]);
    expect(fields?.[0]?.schema).toEqual({ type: 'string' });
    expect(editFields({ properties: { a: { type: 'string' } } })?.map((field) => field.kind)).toEqual([
      'string',
    ]);
    // `required` that is not a list marks nothing required.
    expect(
      editFields({ properties: { a: { type: 'string' } }, required: 'a' })?.map((field) => field.required),
    ).toEqual([false]);
  });

  it('anything else needs the JSON editor: no properties, or a type other than object', () => {
    expect(editFields({ type: 'object' })).toBeNull();
    expect(editFields({ type: 'array', properties: { a: { type: 'string' } } })).toBeNull();
    expect(editFields({ properties: [] })).toBeNull();
    expect(editFields({})).toBeNull();
  });
});

describe('renderEditForm: the controls, filled with the arguments under review', () => {
  const schema = {
    type: 'object',
    required: ['title', 'count'],
    properties: {
      title: { type: 'string', description: 'The new title' },
      count: { type: 'integer' },
      ratio: { type: 'number' },
      pinned: { type: 'boolean' },
      tone: { enum: ['calm', 'bold', 3] },
      meta: { type: 'object' },
      note: { type: 'string' },
    },
  };

  it('gives each kind its control, labelled, with required marked and the description as help', () => {
    const element = form(schema, {
      title: 'Plan',
      count: 2,
      ratio: 0.5,
      pinned: true,
      tone: 'bold',
      meta: { a: 1 },
    });
    expect([...element.querySelectorAll('label')].map((label) => label.textContent)).toEqual([
      'title *',
      'count *',
      'ratio',
      'pinned',
      'tone',
      'meta (JSON)',
      'note',
    ]);
    expect([...element.querySelectorAll('label')].map((label) => label.htmlFor)).toEqual([
      'edit-title',
      'edit-count',
      'edit-ratio',
      'edit-pinned',
      'edit-tone',
      'edit-meta',
      'edit-note',
    ]);
    expect([...element.querySelectorAll('small')].map((help) => help.textContent)).toEqual(['The new title']);
    // Each field holds its label, its control and its help, and nothing else.
    expect([...element.querySelectorAll('.field')].map((field) => field.textContent)).toEqual([
      'title *The new title',
      'count *',
      'ratio',
      'pinned',
      'tonecalmbold3',
      'meta (JSON){\n  "a": 1\n}',
      'note',
    ]);
    const title = control(element, 'title');
    expect([title.id, title.type, title.value, title.required]).toEqual(['edit-title', 'text', 'Plan', true]);
    const count = control(element, 'count');
    expect([count.type, count.getAttribute('step'), count.value, count.required]).toEqual([
      'number',
      '1',
      '2',
      true,
    ]);
    const ratio = control(element, 'ratio');
    expect([ratio.type, ratio.getAttribute('step'), ratio.value, ratio.required]).toEqual([
      'number',
      'any',
      '0.5',
      false,
    ]);
    const pinned = control(element, 'pinned');
    expect([pinned.type, pinned.checked]).toEqual(['checkbox', true]);
    const tone = control<HTMLSelectElement>(element, 'tone');
    expect(tone.tagName).toBe('SELECT');
    expect([...tone.options].map((option) => [option.value, option.textContent, option.selected])).toEqual([
      ['calm', 'calm', false],
      ['bold', 'bold', true],
      ['3', '3', false],
    ]);
    const meta = control<HTMLTextAreaElement>(element, 'meta');
    expect(meta.tagName).toBe('TEXTAREA');
    expect(meta.value).toBe('{\n  "a": 1\n}');
    expect(control(element, 'note').value).toBe('');
  });

  it('a checkbox is ticked only for true; an absent value leaves the controls empty', () => {
    expect(control(form(schema, { pinned: 'yes' }), 'pinned').checked).toBe(false);
    const empty = form(schema, {});
    expect(control(empty, 'pinned').checked).toBe(false);
    expect(control<HTMLTextAreaElement>(empty, 'meta').value).toBe('');
    expect(control(empty, 'count').value).toBe('');
    // A description that is not text is no help.
    const odd = form({ properties: { n: { type: 'number', description: 5 } } }, {});
    expect(odd.querySelector('small')).toBeNull();
    // A string value for a JSON field is shown as it is, not quoted.
    expect(control<HTMLTextAreaElement>(form(schema, { meta: 'raw' }), 'meta').value).toBe('raw');
  });

  it('a schema without properties gets one JSON editor of all the arguments', () => {
    const element = form({ type: 'object' }, { a: 1 });
    expect(element.querySelector('label')?.textContent).toBe('Arguments (JSON)');
    const all = element.elements.namedItem('args-json') as HTMLTextAreaElement;
    expect(all.id).toBe('edit-all');
    expect(all.value).toBe('{\n  "a": 1\n}');
  });
});

describe('readEdit: the edited values, checked, and what changed', () => {
  const schema = {
    type: 'object',
    required: ['title'],
    properties: {
      title: { type: 'string' },
      count: { type: 'integer' },
      ratio: { type: 'number' },
      pinned: { type: 'boolean' },
      tone: { enum: ['calm', 3] },
      meta: { type: 'object' },
      note: { type: 'string' },
    },
  };

  it('reads each kind back as its type and names only the arguments that changed', () => {
    const original = { title: 'Plan', count: 2, tone: 'calm', meta: { a: 1 }, kept: 'x' };
    const element = form(schema, original);
    control(element, 'count').value = '5';
    control(element, 'ratio').value = '0.25';
    control(element, 'pinned').checked = true;
    control<HTMLSelectElement>(element, 'tone').value = '3';
    control<HTMLTextAreaElement>(element, 'meta').value = '{"a":1}';
    expect(readEdit(element, schema, original, t)).toEqual({
      args: { title: 'Plan', count: 5, ratio: 0.25, pinned: true, tone: 3, meta: { a: 1 }, kept: 'x' },
      changed: ['count', 'tone', 'ratio', 'pinned'],
    });
  });

  it('an unchanged form changes nothing', () => {
    const original = { title: 'Plan', count: 2, pinned: false, tone: 'calm', meta: { a: 1 } };
    expect(readEdit(form(schema, original), schema, original, t)).toEqual({ args: original, changed: [] });
  });

  it('an emptied field drops the argument; an empty string argument stays a string', () => {
    const original = { title: 'Plan', count: 2, note: 'n', meta: { a: 1 } };
    const element = form(schema, original);
    control(element, 'count').value = '  ';
    control<HTMLTextAreaElement>(element, 'meta').value = ' \n ';
    control(element, 'note').value = '';
    expect(readEdit(element, schema, original, t)).toEqual({
      // A select always holds one of its options: the first, when the arguments had none.
      args: { title: 'Plan', pinned: false, tone: 'calm', note: '' },
      changed: ['count', 'note', 'meta', 'pinned', 'tone'],
    });
  });

  it('an empty text field the arguments never had stays absent; whitespace in text is kept', () => {
    const element = form(schema, { title: 'Plan' });
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({
      args: { title: 'Plan', pinned: false, tone: 'calm' },
      changed: ['pinned', 'tone'],
    });
    control(element, 'note').value = '  ';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({
      args: { title: 'Plan', pinned: false, tone: 'calm', note: '  ' },
      changed: ['pinned', 'tone', 'note'],
    });
  });

  it('refuses a number that is not finite, or text that is not JSON, naming the field', () => {
    const element = form(schema, { title: 'Plan' });
    // A number input keeps only number syntax; one past the double range still reads as Infinity.
    control(element, 'ratio').value = '1e999';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({ error: 'ratio must be a number' });
    control(element, 'ratio').value = '1';
    control<HTMLTextAreaElement>(element, 'meta').value = '{';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({ error: 'meta is not valid JSON' });
  });

  it('checks the result against the schema before anything runs', () => {
    const element = form(schema, { title: 'Plan' });
    control(element, 'count').value = '1.5';
    expect(readEdit(element, schema, { title: 'Plan' }, t)).toEqual({
      error: 'Not valid: arguments.count must be integer',
    });
  });

  it('a control missing from the form reads as emptied, without throwing', () => {
    const original = { title: 'Plan', count: 2, pinned: true, tone: 'calm' };
    const element = form(schema, original);
    control(element, 'count').remove();
    control(element, 'pinned').remove();
    expect(readEdit(element, schema, original, t)).toEqual({
      args: { title: 'Plan', tone: 'calm' },
      changed: ['count', 'pinned'],
    });
  });

  it('the JSON editor: its object is the arguments; not JSON or not an object is refused', () => {
    const whole = { type: 'object', required: ['a'] };
    const element = form(whole, { a: 1 });
    const all = element.elements.namedItem('args-json') as HTMLTextAreaElement;
    all.value = '{"a":2,"b":true}';
    expect(readEdit(element, whole, { a: 1 }, t)).toEqual({ args: { a: 2, b: true }, changed: ['a', 'b'] });
    all.value = '{"a":';
    expect(readEdit(element, whole, { a: 1 }, t)).toEqual({ error: 'Arguments (JSON) is not valid JSON' });
    all.value = '[1]';
    expect(readEdit(element, whole, { a: 1 }, t)).toEqual({
      error: 'Not valid: arguments must be an object',
    });
    all.value = '{}';
    expect(readEdit(element, whole, { a: 1 }, t)).toEqual({ error: 'Not valid: arguments.a is required' });
    // A removed argument counts as changed.
    all.value = '{"a":1}';
    expect(readEdit(element, whole, { a: 1, gone: 0 }, t)).toEqual({ args: { a: 1 }, changed: ['gone'] });
  });
});
