import { isObject } from '@diosc/protocol';
import { html, type TemplateResult } from 'lit';
import type { Translator } from '../i18n/translator.js';
import { checkSchema } from './schema-check.js';

type Schema = Record<string, unknown>;

/** One generated control: a simple type gets an input, anything else a JSON editor. */
export interface EditField {
  key: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  required: boolean;
  schema: Schema;
}

function kindOf(schema: Schema): EditField['kind'] {
  if (
    Array.isArray(schema.enum) &&
    schema.enum.every((each) => typeof each === 'string' || typeof each === 'number')
  )
    return 'enum';
  const type = schema.type;
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json';
}

/** The form for an object schema's properties, or null when the whole value needs a JSON editor. */
export function editFields(schema: Schema): EditField[] | null {
  if (!isObject(schema.properties) || (schema.type !== undefined && schema.type !== 'object')) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties)
    .filter(([, inner]) => isObject(inner))
    .map(([key, inner]) => ({
      key,
      kind: kindOf(inner as Schema),
      required: required.has(key),
      schema: inner as Schema,
    }));
}

const asText = (value: unknown) =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

function control(field: EditField, value: unknown, t: Translator['t']): TemplateResult {
  const id = `edit-${field.key}`;
  const name = `arg:${field.key}`;
  const label = field.kind === 'json' ? t('consensus.json', { field: field.key }) : field.key;
  const help = typeof field.schema.description === 'string' ? field.schema.description : '';
  const input =
    field.kind === 'boolean'
      ? html`<input id=${id} name=${name} type="checkbox" .checked=${value === true} />`
      : field.kind === 'enum'
        ? html`<select id=${id} name=${name}>${(field.schema.enum as unknown[]).map((option) => html`<option .value=${String(option)} ?selected=${option === value}>${String(option)}</option>`)}</select>`
        : field.kind === 'json'
          ? html`<textarea id=${id} name=${name} rows="4" spellcheck="false">${asText(value)}</textarea>`
          : html`<input id=${id} name=${name} type=${field.kind === 'string' ? 'text' : 'number'} step=${field.kind === 'integer' ? '1' : 'any'} .value=${asText(value)} ?required=${field.required} />`;
  return html`<div class="field"><label for=${id}>${label}${field.required ? ' *' : ''}</label>${input}${help ? html`<small>${help}</small>` : ''}</div>`;
}

/** The Edit form's controls, filled with the arguments under review. */
export function renderEditForm(
  schema: Schema,
  args: Record<string, unknown>,
  t: Translator['t'],
): TemplateResult {
  const fields = editFields(schema);
  if (!fields)
    return html`<div class="field"><label for="edit-all">${t('consensus.allArguments')}</label><textarea id="edit-all" name="args-json" rows="8" spellcheck="false">${JSON.stringify(args, null, 2)}</textarea></div>`;
  return html`${fields.map((field) => control(field, args[field.key], t))}`;
}

function readField(
  field: EditField,
  form: HTMLFormElement,
  had: boolean,
  t: Translator['t'],
): { value?: unknown; error?: string } {
  const element = form.elements.namedItem(`arg:${field.key}`) as HTMLInputElement | null;
  if (!element) return {};
  if (field.kind === 'boolean') return { value: element.checked };
  const raw = element.value;
  if (raw.trim() === '' && field.kind !== 'string') return {};
  if (raw === '' && !had) return {};
  if (field.kind === 'string') return { value: raw };
  if (field.kind === 'enum')
    return { value: (field.schema.enum as unknown[]).find((option) => String(option) === raw) };
  if (field.kind === 'json') {
    try {
      return { value: JSON.parse(raw) };
    } catch {
      return { error: t('consensus.notJson', { field: field.key }) };
    }
  }
  const number = Number(raw);
  return Number.isFinite(number)
    ? { value: number }
    : { error: t('consensus.notNumber', { field: field.key }) };
}

/**
 * The edited arguments, checked against the schema before anything runs, and the names of the
 * top-level arguments that changed — the only part of an edit the model is told about besides the
 * values themselves.
 */
export function readEdit(
  form: HTMLFormElement,
  schema: Schema,
  original: Record<string, unknown>,
  t: Translator['t'],
): { args: Record<string, unknown>; changed: string[] } | { error: string } {
  let args: Record<string, unknown>;
  const fields = editFields(schema);
  if (!fields) {
    try {
      args = JSON.parse((form.elements.namedItem('args-json') as HTMLTextAreaElement).value);
    } catch {
      return { error: t('consensus.notJson', { field: t('consensus.allArguments') }) };
    }
    if (!isObject(args)) return { error: t('consensus.invalid', { problem: 'arguments must be an object' }) };
  } else {
    args = { ...original };
    for (const field of fields) {
      const read = readField(field, form, field.key in original, t);
      if (read.error) return { error: read.error };
      if (read.value === undefined) delete args[field.key];
      else args[field.key] = read.value;
    }
  }
  const problem = checkSchema(schema, args);
  if (problem) return { error: t('consensus.invalid', { problem }) };
  const keys = new Set([...Object.keys(original), ...Object.keys(args)]);
  const changed = [...keys].filter((key) => JSON.stringify(original[key]) !== JSON.stringify(args[key]));
  return { args, changed };
}
