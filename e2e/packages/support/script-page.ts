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
