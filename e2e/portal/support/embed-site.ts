import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The page a site owner makes by pasting the portal's snippet; `highlight_row` is its one handler. */
function sitePage(snippet: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Test shop</title></head>
<body>
<main>
  <h1>Test shop</h1>
  <table><tbody><tr data-id="42"><td>Product 42</td></tr><tr data-id="7"><td>Product 7</td></tr></tbody></table>
</main>
<script>window.highlighted = [];</script>
${snippet}
<script>
diosc('tool', 'highlight_row', async (params) => {
  window.highlighted.push(params.id);
  document.querySelector('[data-id="' + params.id + '"]')?.classList.add('is-highlighted');
  return { highlighted: params.id };
});
</script>
</body>
</html>`;
}

/**
 * A site on its own loopback origin (a port of its own on 127.0.0.1, so every hub call is
 * cross-origin) serving the pasted snippet on every path — the Sitemap's routes included.
 */
export async function startEmbedSite(): Promise<{
  origin: string;
  /** Sets the snippet the pages carry (pasted from the portal's Copy button). */
  paste(snippet: string): void;
  close(): Promise<void>;
}> {
  let snippet = '';
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(sitePage(snippet));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paste(text) {
      snippet = text;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
