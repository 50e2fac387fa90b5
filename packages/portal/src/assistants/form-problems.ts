import { DioscError } from '@diosc/protocol';
import { html, nothing } from 'lit';
import { t } from '../i18n/i18n.js';
import { errorText } from '../ui/error-text.js';
import type { Problem } from './validation.js';

export function problemText(problem: Problem): string {
  return t(`assistants.invalid.${problem.key}`, problem.params);
}

/** The message under a refused field; its id is what the field's `aria-describedby` names. */
export function fieldError(id: string, problem: Problem | string | null) {
  if (!problem) return nothing;
  return html`<p id=${`${id}-error`} class="field-error small">${typeof problem === 'string' ? problem : problemText(problem)}</p>`;
}

/** `aria-invalid` and `aria-describedby` values for a field with id `id` (and an optional hint). */
export function invalidIf(id: string, problem: unknown, hint?: string) {
  const described = [problem ? `${id}-error` : null, hint ?? null].filter(Boolean).join(' ');
  return { invalid: problem ? 'true' : 'false', described: described || nothing };
}

/**
 * A server refusal for the owner: the translated sentence for its code, then the server's own
 * message (it names the field), rendered as text by the caller.
 */
export function serverProblem(error: unknown): string {
  if (DioscError.isInstance(error) && error.code === 'invalid_input' && error.message)
    return `${errorText(error)} ${error.message}`;
  return errorText(error);
}

/** The settings form's field for a top-level body field the server named. */
const SETTINGS_FIELDS: Record<string, string> = {
  name: 'name',
  instructions: 'instructions',
  model: 'modelId',
  allowedOrigins: 'origins',
  providerKey: 'providerKey',
};

/**
 * Which settings field a server refusal is about, from where its message starts
 * (`body.allowedOrigins.0 must match …`, `body.limits.maxStepsPerTurn must be <= 50`), so the
 * refusal is tied to that field like the page's own; `null` when it names none of them.
 */
export function settingsFieldOf(error: unknown): string | null {
  if (!DioscError.isInstance(error) || error.code !== 'invalid_input') return null;
  const where = /^body\.([A-Za-z]+)(?:\.([A-Za-z]+))?/.exec(error.message);
  if (!where) return null;
  const [, field, inner] = where;
  if (field === 'limits' && inner) return inner;
  return SETTINGS_FIELDS[field!] ?? null;
}
