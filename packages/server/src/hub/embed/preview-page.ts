import { randomBytes } from 'node:crypto';
import type { AssistantRecord } from '../assistants/assistants.js';
import { COMMAND_QUEUE } from './embed-snippet.js';

function html(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The hub's live preview of an assistant: a plain page on the hub's own origin that loads the kit
 * and opens the widget, with the page's navigation shown instead of followed (the preview has no
 * site to move through). Its one inline script runs under a per-response nonce; the CSP allows
 * nothing else but the hub itself.
 */
export function previewPage(record: AssistantRecord): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const name = html(record.config.name);
  const init = JSON.stringify({ hubUrl: '', publishableKey: record.publishableKey, open: true }).replaceAll(
    '<',
    '\\u003c',
  );
  const script = [
    COMMAND_QUEUE,
    `const options = ${init};`,
    'options.hubUrl = location.origin;',
    "diosc('init', options);",
    "diosc('setNavigationHandler', (path) => {",
    "  document.getElementById('navigated').textContent = 'The assistant opened ' + path + ' (not followed in the preview).';",
    '});',
  ].join('\n');
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Preview: ${name}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:40rem}output{display:block;margin-top:1rem;color:#555}</style>
</head>
<body>
<main>
<h1>Preview: ${name}</h1>
<p>This page is served by the hub so you can try the assistant as a visitor would. It has no browser tools of its own; the assistant's navigation is shown below instead of followed.</p>
<output id="navigated" aria-live="polite"></output>
</main>
<script nonce="${nonce}">
${script}
</script>
<script async src="/kit/diosc-kit.js" nonce="${nonce}"></script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "connect-src 'self'",
    // The widget styles its shadow DOM with <style> elements.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  return { html: page, csp };
}
