import { GENERATE_FILE_FORMATS as FILE_FORMATS, type GenerateFileFormat } from '@diosc/protocol';
import { html } from 'lit';
import { t } from '../i18n/i18n.js';
import { fieldError, invalidIf } from './form-problems.js';
import type { Problem } from './validation.js';

/** `generate_file` as the form holds it: the largest file as typed, in KiB. */
export interface GenerateDraft {
  enabled: boolean;
  formats: GenerateFileFormat[];
  maxKiB: string;
}

/**
 * The `generate_file` switch, its formats and its largest file, with their refusals. Changes go
 * out as functions of the current draft, so two changes before a render never undo each other.
 */
export function generateFileSection(
  generate: GenerateDraft,
  problems: Readonly<Record<string, Problem>>,
  change: (patch: (current: GenerateDraft) => Partial<GenerateDraft>) => void,
) {
  const formats = invalidIf('gen-formats', problems['gen-formats']);
  const max = invalidIf('gen-max', problems['gen-max'], 'gen-max-hint');
  return html`<section class="card mt" aria-labelledby="generate-heading">
    <h2 id="generate-heading">${t('assistants.tools.generateHeading')}</h2>
    <p class="small muted mt">${t('assistants.tools.generateHint')}</p>
    <div class="checks mt"><label><input type="checkbox" id="gen-enabled" .checked=${generate.enabled}
      @change=${(event: Event) => {
        const enabled = (event.target as HTMLInputElement).checked;
        change(() => ({ enabled }));
      }} /> ${t('assistants.tools.generateEnabled')}</label></div>
    <fieldset class="mt" aria-invalid=${formats.invalid} aria-describedby=${formats.described}>
      <legend>${t('assistants.tools.formats')}</legend>
      <div class="checks">${FILE_FORMATS.map(
        (
          format,
        ) => html`<label><input type="checkbox" data-format=${format} .checked=${generate.formats.includes(format)}
          @change=${(event: Event) => {
            const on = (event.target as HTMLInputElement).checked;
            change((current) => {
              const next = new Set(current.formats);
              if (on) next.add(format);
              else next.delete(format);
              return { formats: FILE_FORMATS.filter((f) => next.has(f)) };
            });
          }} />${format}</label>`,
      )}</div>
      ${fieldError('gen-formats', problems['gen-formats'] ?? null)}
    </fieldset>
    <div class="field">
      <label for="gen-max">${t('assistants.tools.maxKiB')}</label>
      <p id="gen-max-hint" class="small muted">${t('assistants.limits.range', { min: 1, max: 10 * 1024 })}</p>
      <input id="gen-max" class="narrow" type="text" inputmode="numeric" .value=${generate.maxKiB} aria-invalid=${max.invalid} aria-describedby=${max.described}
        @input=${(event: Event) => {
          const maxKiB = (event.target as HTMLInputElement).value;
          change(() => ({ maxKiB }));
        }} />
      ${fieldError('gen-max', problems['gen-max'] ?? null)}
    </div>
  </section>`;
}
