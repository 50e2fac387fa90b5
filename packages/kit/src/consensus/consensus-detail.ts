import { html, type TemplateResult } from 'lit';
import type { KitContext } from '../kit-context.js';
import type { ApprovalRequest } from './consensus-broker.js';

/** A value as a table cell: strings as they are, everything else as compact JSON. Always text. */
export function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '—';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function defaultDetail(kit: KitContext, request: ApprovalRequest): TemplateResult {
  const t = kit.translator.t;
  if (request.diff.length > 0)
    return html`<table>
      <thead><tr><th scope="col">${t('consensus.field')}</th><th scope="col">${t('consensus.current')}</th><th scope="col">${t('consensus.next')}</th></tr></thead>
      <tbody>${request.diff.map((row) => html`<tr><th scope="row">${row.field}</th><td class="before">${cellText(row.current)}</td><td class="after">${cellText(row.next)}</td></tr>`)}</tbody>
    </table>`;
  return html`<table>
    <thead><tr><th scope="col">${t('consensus.argument')}</th><th scope="col">${t('consensus.value')}</th></tr></thead>
    <tbody>${Object.entries(request.args).map(([key, value]) => html`<tr><th scope="row">${key}</th><td>${cellText(value)}</td></tr>`)}</tbody>
  </table>`;
}

/**
 * The detail body: the host's `consensusView` for this tool when it has one (a Node, or a string
 * shown as text), otherwise the before/after table of `diff` rows, or the arguments.
 */
export function consensusDetail(kit: KitContext, request: ApprovalRequest): unknown {
  const view = kit.views.get(request.tool);
  if (view) {
    try {
      const custom = view({
        tool: request.tool,
        severity: request.severity,
        summary: request.summary,
        args: structuredClone(request.args),
        diff: structuredClone(request.diff),
      });
      if (typeof custom === 'string' || (typeof Node !== 'undefined' && custom instanceof Node))
        return custom;
      console.error(`[diosc] consensusView "${request.tool}" must return a Node or a string`);
    } catch (error) {
      console.error(`[diosc] consensusView "${request.tool}" threw`, error);
    }
  }
  return defaultDetail(kit, request);
}
