import { type ApprovalSeverity, COLLECTION_FUNCTIONS, type GrantEntry } from '@diosc/protocol';
import { html } from 'lit';
import { t } from '../i18n/i18n.js';

const SEVERITIES: ApprovalSeverity[] = ['low', 'medium', 'high'];

/** Server tools a grant exposes, as the model sees them (`collections_list` comes with any grant). */
export function grantedToolNames(grant: readonly GrantEntry[]): string[] {
  if (grant.length === 0) return [];
  const granted = new Set(grant.flatMap((entry) => entry.functions));
  return ['collections_list', ...COLLECTION_FUNCTIONS.filter((fn) => granted.has(fn))];
}

/**
 * Every server tool the model could be offered, by the name the model sees, so each can be given
 * a Consensus severity: the granted catalog functions, `generate_file`, the listed MCP tools
 * (`<server>__<tool>`, as the hub names them) and any name that already has a severity.
 */
export function serverToolNames(from: {
  grant: readonly GrantEntry[];
  generateFile: boolean;
  mcpTools: readonly { server: string; tools: readonly { name: string }[] }[];
  consensus: Readonly<Record<string, ApprovalSeverity>>;
}): string[] {
  const names = new Set<string>(grantedToolNames(from.grant));
  if (from.generateFile) names.add('generate_file');
  for (const { server, tools } of from.mcpTools)
    for (const tool of tools)
      names.add(`${server}__${tool.name}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64));
  for (const name of Object.keys(from.consensus)) names.add(name);
  return [...names];
}

/** One row per server tool with a select: no Consensus, or the severity its dialog shows. */
export function consensusTable(
  names: readonly string[],
  consensus: Readonly<Record<string, ApprovalSeverity>>,
  change: (name: string, severity: ApprovalSeverity | null) => void,
) {
  const pick = (name: string) => (event: Event) => {
    const value = (event.target as HTMLSelectElement).value;
    change(name, value === '' ? null : (value as ApprovalSeverity));
  };
  return html`<section class="card mt" aria-labelledby="consensus-heading">
    <h2 id="consensus-heading">${t('assistants.tools.consensusHeading')}</h2>
    <p class="small muted mt">${t('assistants.tools.consensusHint')}</p>
    ${
      names.length === 0
        ? html`<p class="empty muted mt">${t('assistants.tools.noServerTools')}</p>`
        : html`<div class="table-wrap"><table class="mt">
          <thead><tr><th scope="col">${t('assistants.tools.tool')}</th><th scope="col">${t('assistants.tools.consensus')}</th></tr></thead>
          <tbody>${names.map(
            (name, index) => html`<tr><td class="mono" id=${`cs-name-${index}`}>${name}</td><td>
              <select id=${`cs-${index}`} data-tool=${name} aria-labelledby=${`cs-name-${index}`} @change=${pick(name)}>
                <option value="" ?selected=${!consensus[name]}>${t('assistants.tools.noConsensus')}</option>
                ${SEVERITIES.map((s) => html`<option value=${s} ?selected=${consensus[name] === s}>${t(`assistants.severity.${s}`)}</option>`)}
              </select></td></tr>`,
          )}</tbody></table></div>`
    }
  </section>`;
}
