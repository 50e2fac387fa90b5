/**
 * A page that loads the kit as docs/kit.md's snippet shows, with `/kit/` serving the package's own
 * `script/` folder: the calls queued before the async script arrives must be replayed.
 */
export const SCRIPT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Orders (script)</title>
<script>window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};</script>
<script>
const query = new URLSearchParams(location.search);
diosc('init', { hubUrl: query.get('hub'), publishableKey: query.get('pk'), open: true });
diosc('tool', 'highlight_row', (params) => ({ highlighted: params.id, from: 'script' }));
</script>
<script async src="/kit/diosc-kit.js"></script>
</head>
<body></body>
</html>
`;

/**
 * The package's script build on a page whose policy allows no inline script (docs/kit.md): the kit
 * starts from its tag's `data-*`, the page's tool is registered from a file of its own.
 */
export function strictScriptPage(hubUrl: string, publishableKey: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Orders (strict)</title>
<script src="/strict-tools.js"></script>
<script async src="/kit/diosc-kit.js" data-hub-url="${hubUrl}" data-publishable-key="${publishableKey}" data-open="true"></script>
</head>
<body></body>
</html>
`;
}

/** The strict page's own script: the command queue and its tool. */
export const STRICT_TOOLS = `window.diosc = window.diosc || function () { (window.diosc.q = window.diosc.q || []).push(arguments); };
diosc('tool', 'highlight_row', (params) => ({ highlighted: params.id, from: 'strict script' }));
`;
