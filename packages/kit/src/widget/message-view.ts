import type { ConversationMessage, FileDescriptor, ToolActivity } from '@diosc/protocol';
import { html, nothing, type TemplateResult } from 'lit';
import type { Translator } from '../i18n/translator.js';
import { icons } from './icons.js';
import type { LinkPolicy } from './markdown/link-view.js';
import { currentParser } from './markdown/load-parser.js';
import { renderMarkdown } from './markdown/render-markdown.js';

export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/** A download chip: the saved message's descriptor; clicking fetches the file with the session. */
export function fileChip(
  file: FileDescriptor,
  t: Translator,
  download: (file: FileDescriptor) => void,
): TemplateResult {
  return html`<button type="button" class="chip" part="file-chip" data-file-id=${file.fileId} @click=${() => download(file)}
    aria-label=${t.t('file.download', { name: file.filename, size: formatBytes(file.sizeBytes, t.locale) })}>
    ${icons.download} ${file.filename} <small>${formatBytes(file.sizeBytes, t.locale)}</small>
  </button>`;
}

/** A tool's outcome in words, not colour alone: a declined intent is neither done nor failed. */
function toolState(tool: ToolActivity): 'running' | 'done' | 'failed' | 'declined' {
  if (tool.ok === null) return 'running';
  if (tool.ok) return 'done';
  return tool.summary === 'declined' ? 'declined' : 'failed';
}

const TOOL_ICONS = { running: '⋯', done: '✓', failed: '✕', declined: '⊘' } as const;

export function toolRow(tool: ToolActivity, t: Translator): TemplateResult {
  const state = toolState(tool);
  return html`<li class="tool ${state}" part="tool-row">
    <span aria-hidden="true">${TOOL_ICONS[state]}</span>
    ${t.t(`tool.${state}`, { tool: tool.tool })} <small>${t.t(`tool.${tool.where}`)}</small>
    ${tool.summary && state === 'failed' ? html`<small>(${tool.summary})</small>` : nothing}
  </li>`;
}

/** Markdown once the parser is here; until then (the built kit loads it after the launcher) as written. */
function assistantText(text: string, links: LinkPolicy): TemplateResult | TemplateResult[] {
  const parser = currentParser();
  return parser ? renderMarkdown(text, parser, links) : html`<p class="as-written">${text}</p>`;
}

/** One message: a visitor's as plain text, the assistant's as safe markdown, with tools and chips. */
export function messageView(
  message: Pick<ConversationMessage, 'role' | 'text' | 'tools' | 'files'> & { id?: string },
  t: Translator,
  download: (file: FileDescriptor) => void,
  links: LinkPolicy,
  streaming = false,
): TemplateResult {
  const mine = message.role === 'user';
  return html`<li class="message ${message.role}" part="message ${message.role}-message" data-message-id=${message.id ?? 'draft'} aria-busy=${streaming ? 'true' : 'false'}>
    <span class="who">${t.t(mine ? 'messages.you' : 'messages.assistant')}</span>
    ${message.tools.length > 0 ? html`<ul class="tools">${message.tools.map((tool) => toolRow(tool, t))}</ul>` : nothing}
    ${message.text ? html`<div class="text">${mine ? message.text : assistantText(message.text, links)}</div>` : nothing}
    ${message.files.length > 0 ? html`<div class="files">${message.files.map((file) => fileChip(file, t, download))}</div>` : nothing}
  </li>`;
}
