import { ASSISTANT_FIELD_SCHEMAS, VISITOR_UPLOAD_TYPES } from '@diosc/protocol';
import { html } from 'lit';
import { t } from '../i18n/i18n.js';
import { fieldError, invalidIf } from './form-problems.js';
import type { Problem } from './validation.js';

export const MIB = 1024 * 1024;
/** The hub's own cap on one file, in MiB: from its schema, as the limits' ranges are. */
export const UPLOAD_MAX_MIB = Math.floor(ASSISTANT_FIELD_SCHEMAS.files.properties.maxFileBytes.maximum / MIB);

/** What the settings form shows of an assistant's uploads: off for a new one, as the hub does. */
export interface UploadsDraft {
  enabled: boolean;
  allowedTypes: readonly string[];
  maxFileBytes: number;
}

export const NEW_UPLOADS: UploadsDraft = {
  enabled: false,
  allowedTypes: VISITOR_UPLOAD_TYPES,
  maxFileBytes: 10 * MIB,
};

/**
 * Whether visitors may send files, which types and how large, as plain form fields (read back by
 * `readSettings`). Types an operator set through the API or the CLI outside the usual list stay
 * listed, so saving the form never drops them silently.
 */
export function uploadsSection(
  uploads: UploadsDraft,
  problems: Readonly<Record<string, Problem | string | undefined>>,
) {
  const types = [...new Set([...VISITOR_UPLOAD_TYPES, ...uploads.allowedTypes])];
  const typesProblem = invalidIf('upload-types', problems['upload-types'] ?? null);
  const max = invalidIf('upload-max', problems['upload-max'] ?? null, 'upload-max-hint');
  return html`<section class="card mt" aria-labelledby="uploads-heading">
    <h2 id="uploads-heading">${t('assistants.uploads.heading')}</h2>
    <p class="small muted mt">${t('assistants.uploads.hint')}</p>
    <div class="checks mt"><label><input type="checkbox" id="upload-enabled" name="uploadsEnabled" .checked=${uploads.enabled} />
      ${t('assistants.uploads.enabled')}</label></div>
    <fieldset id="upload-types" class="mt" aria-invalid=${typesProblem.invalid} aria-describedby=${typesProblem.described}>
      <legend>${t('assistants.uploads.types')}</legend>
      <div class="checks">${types.map(
        (type) =>
          html`<label><input type="checkbox" name="uploadTypes" value=${type} .checked=${uploads.allowedTypes.includes(type)} />${type}</label>`,
      )}</div>
      ${fieldError('upload-types', problems['upload-types'] ?? null)}
    </fieldset>
    <div class="field">
      <label for="upload-max">${t('assistants.uploads.maxMiB')}</label>
      <p id="upload-max-hint" class="small muted">${t('assistants.limits.range', { min: 1, max: UPLOAD_MAX_MIB })}</p>
      <input id="upload-max" name="uploadMaxMiB" class="narrow" type="text" inputmode="numeric"
        .value=${String(Math.max(1, Math.round(uploads.maxFileBytes / MIB)))}
        aria-invalid=${max.invalid} aria-describedby=${max.described} />
      ${fieldError('upload-max', problems['upload-max'] ?? null)}
    </div>
  </section>`;
}
