import type { EmbedView } from '@diosc/protocol';
import type { AssistantRecord } from '../assistants/assistants.js';

/** docs/kit.md's command queue: calls made before the kit has loaded are replayed when it arrives. */
export const COMMAND_QUEUE =
  'window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};';

/** A value inside the snippet's JavaScript: a JSON string, with `<` escaped so it cannot end the script. */
function js(value: string): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

function initCall(hubUrl: string, publishableKey: string): string {
  return `diosc('init', { hubUrl: ${js(hubUrl)}, publishableKey: ${js(publishableKey)} });`;
}

/** A value inside an HTML attribute: `&` and `"` escaped, and `<` so it cannot close a tag. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** Commented-out lines for what the page supplies: each declared tool's handler, SPA navigation. */
function pageHints(record: AssistantRecord): string[] {
  const lines = record.config.browserTools.map(
    (tool) => `// diosc('tool', ${js(tool.name)}, async (params) => { /* … */ return {}; });`,
  );
  if (record.config.sitemap.length > 0)
    lines.push("// diosc('setNavigationHandler', (path) => router.navigate(path)); // SPA navigation");
  return lines;
}

/**
 * The hub's live preview page of an assistant (an owner route: it needs the portal's session), where
 * the owner tries it as a visitor would. The embed panel links it and `npm start` prints it.
 */
export function previewPath(assistantId: string): string {
  return `/api/owner/assistants/${assistantId}/preview`;
}

/**
 * What the owner pastes into their site, as data: the command-queue snippet with its
 * `<script async>` tag, the ES module import, and for a page with a strict Content Security Policy
 * the tag alone with the policy it needs — the publishable key (public by design) filled in.
 */
export function embedView(hubUrl: string, record: AssistantRecord): EmbedView {
  const scriptUrl = `${hubUrl}/kit/diosc-kit.js`;
  const moduleUrl = `${hubUrl}/kit/diosc-kit.mjs`;
  const init = initCall(hubUrl, record.publishableKey);
  const hints = pageHints(record);
  const snippet = [
    '<script>',
    COMMAND_QUEUE,
    init,
    ...hints,
    '</script>',
    `<script async src=${JSON.stringify(scriptUrl)}></script>`,
    '',
  ].join('\n');
  const esm = [`import { diosc } from ${js(moduleUrl)};`, '', init, ...hints, ''].join('\n');
  const strictSnippet = [
    '<!-- Your own script file: the command-queue line, then your tools -->',
    '<script src="/assets/assistant-tools.js"></script>',
    `<script async src="${attribute(scriptUrl)}" data-hub-url="${attribute(hubUrl)}" data-publishable-key="${attribute(record.publishableKey)}"></script>`,
    '',
  ].join('\n');
  const origin = new URL(hubUrl).origin;
  const strictPolicy = `script-src 'self' ${origin}; connect-src ${origin}; require-trusted-types-for 'script'; trusted-types lit-html diosc-kit`;
  return {
    publishableKey: record.publishableKey,
    hubUrl,
    snippet,
    esm,
    strictSnippet,
    strictPolicy,
    scriptUrl,
    moduleUrl,
    previewUrl: previewPath(record.id),
  };
}
