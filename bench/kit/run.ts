// `npm run bench` (kit part): (a) the kit's initial JavaScript, gzip, against Lit alone; (b) read_page
// in Chromium on generated 10,000- and 50,000-element pages against innerText in the same page, with
// exclusions checked; (c) a browser-tool round trip through the real hub, the kit's page against a
// bare page that answers with plain fetch in the same browser. Results in test-results/bench/kit.* (copied to bench/results/ by `npm run docs:refresh`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  bundleBrowser,
  bundleKit,
  KIT_GZIP_BUDGET_BYTES,
  KIT_WIRE_BUDGET_BYTES,
  writeKitDist,
} from '@diosc/kit/build';
import { READ_PAGE_COUNT_NODES } from '@diosc/kit/read-page';
import { kitAssetsPlugin } from '@diosc/server';
import { startHubServer } from '@diosc/server/testing';
import { bundlePage } from '../../e2e/support/bundle-page.js';
import { launchChromium } from '../../e2e/support/chromium.js';
import { measureReadPage } from './read-page.js';
import { measureRoundTrip } from './round-trip.js';

const root = resolve(import.meta.dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);

const kit = await bundleKit('iife');
const lit = await bundleBrowser(join(import.meta.dirname, 'page/lit-only.ts'), 'iife');
const size = {
  kitGzipBytes: kit.gzipBytes,
  kitBrotliBytes: kit.brotliBytes,
  litAloneBrotliBytes: lit.brotliBytes,
  wireBudgetBytes: KIT_WIRE_BUDGET_BYTES,
  litAloneGzipBytes: lit.gzipBytes,
  budgetBytes: KIT_GZIP_BUDGET_BYTES,
  kitOverLit: kit.gzipBytes / lit.gzipBytes,
  kitOverBudget: kit.gzipBytes / KIT_GZIP_BUDGET_BYTES,
  markdownParserBrotliBytes: kit.markdown.brotliBytes,
  markdownParserGzipBytes: kit.markdown.gzipBytes,
  webmcpBridgeBrotliBytes: kit.bridge.brotliBytes,
  webmcpBridgeGzipBytes: kit.bridge.gzipBytes,
};
console.log(
  `size: kit ${kit.brotliBytes} B Brotli (budget ${KIT_WIRE_BUDGET_BYTES}), ${kit.gzipBytes} B gzip (budget ${KIT_GZIP_BUDGET_BYTES}), Lit alone ${lit.brotliBytes} / ${lit.gzipBytes} B`,
);

const dist = mkdtempSync(join(tmpdir(), 'diosc-kit-bench-'));
const manifest = await writeKitDist(dist);
const readPageScript = await bundlePage(join(import.meta.dirname, 'page/read-page-bench.ts'));
const bareScript = await bundlePage(join(import.meta.dirname, 'page/bare-client.ts'));
const kitHostScript = await bundlePage(join(import.meta.dirname, 'page/kit-host.ts'), 'iife');
const round = { script: (_call: unknown) => ({ text: 'idle' }) as object };
const server = await startHubServer({
  script: (call) => round.script(call) as never,
  configure: (app) => {
    void app.register(kitAssetsPlugin, { prefix: '/bench', dir: dist });
    const hubUrl = app.diosc.config.publicOrigin;
    // Cross-origin isolated pages: performance.now() in 5 µs steps instead of 100 µs.
    const isolated = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    };
    const html = (body: string) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body>${body}</body></html>`;
    const page = (path: string, body: (query: Record<string, string>) => string) =>
      app.get(path, async (request, reply) =>
        reply
          .headers(isolated)
          .type('text/html')
          .send(html(body(request.query as Record<string, string>))),
      );
    const script = (path: string, code: string) =>
      app.get(path, async (_request, reply) => reply.headers(isolated).type('text/javascript').send(code));
    page('/bench/read-page', () => '<script type="module" src="/bench/read-page.js"></script>');
    script('/bench/read-page.js', readPageScript);
    page('/bench/bare', () => '<script type="module" src="/bench/bare.js"></script>');
    script('/bench/bare.js', bareScript);
    page(
      '/bench/kit-page',
      (
        query,
      ) => `<script>window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};</script>
<script src="/bench/kit-host.js" data-hub="${hubUrl}" data-pk="${query.pk ?? ''}"></script>
<script async src="${hubUrl}/bench/kit/${manifest.immutableScript}"></script>`,
    );
    script('/bench/kit-host.js', kitHostScript);
  },
});
const browser = await launchChromium();
let readPage: Awaited<ReturnType<typeof measureReadPage>>;
let roundTrip: Awaited<ReturnType<typeof measureRoundTrip>>;
try {
  readPage = await measureReadPage(browser, `${server.url}/bench/read-page`);
  roundTrip = await measureRoundTrip({ browser, server, round, rounds: ROUNDS, turns: TURNS });
} finally {
  await browser.close();
  await server.close();
  rmSync(dist, { recursive: true, force: true });
}

const at = new Date().toISOString();
const loadAverage = `load average ${loadavg()
  .map((value) => value.toFixed(1))
  .join(', ')} on ${availableParallelism()} CPUs`;
const machine = {
  cpus: availableParallelism(),
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  chromium: browser.version(),
};
const report = {
  benchmark: 'kit: size, read_page, browser-tool round trip',
  at,
  machine,
  size,
  readPage,
  roundTrip,
};
const ms = (value: number) => value.toFixed(2);
const table = [
  `# Kit benchmark — ${at}`,
  '',
  `${machine.cpus} CPUs (${machine.cpu}), Node ${machine.node}, Chromium ${machine.chromium}. Every baseline is measured in the same run.`,
  '',
  '## Initial JavaScript (Brotli 11, as the hub sends it to a browser; gzip -9)',
  '',
  '| build | Brotli bytes | gzip bytes | ratio |',
  '|---|---:|---:|---:|',
  `| the kit (\`<script async>\` build: widget, dialog, built-ins, adapter, transport) | ${size.kitBrotliBytes} | ${size.kitGzipBytes} | ${(size.kitBrotliBytes / KIT_WIRE_BUDGET_BYTES).toFixed(2)}× of the ${KIT_WIRE_BUDGET_BYTES} B wire budget; ${size.kitOverBudget.toFixed(2)}× of the ${KIT_GZIP_BUDGET_BYTES} B gzip one |`,
  `| Lit alone (one element), built the same way | ${size.litAloneBrotliBytes} | ${size.litAloneGzipBytes} | kit = ${size.kitOverLit.toFixed(1)}× Lit (gzip) |`,
  `| on demand, not initial: the markdown parser (after the launcher is drawn) | ${size.markdownParserBrotliBytes} | ${size.markdownParserGzipBytes} | its own pinned script |`,
  `| on demand, not initial: the WebMCP bridge (\`init({ webmcp: true })\`) | ${size.webmcpBridgeBrotliBytes} | ${size.webmcpBridgeGzipBytes} | its own pinned script |`,
  '',
  '## read_page without a selector, against `document.body.innerText` in the same page (goal ≤ 3 ms; innerText does not read shadow roots)',
  '',
  'Generated pages: a hidden subtree (30 % of the elements), an `aria-hidden` block, SVG text, script/style/iframe/password markers, then visible sections where every third paragraph also holds a `visibility:hidden` span. Median of 30 batches of 10 calls after layout and 200 untimed calls (first call in brackets); *leaks* lists the hidden markers found in the text. *says there was* is how much text the cut answer reports (`totalChars`, or `totalCharsAtLeast` as ≥ N, counting at most ' +
    `${READ_PAGE_COUNT_NODES} nodes past the cut), against the text a read with no cut gives (not timed).`,
  '',
  '| elements | sections in | read_page ms (first) | innerText ms (first) | innerText / read_page | read_page chars | says there was | of (no cut) | read_page leaks | innerText chars | innerText leaks |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|',
  ...readPage.map(
    (row) =>
      `| ${row.elements} | ${row.shadow ? 'shadow roots' : 'the document'} | ${ms(row.ours.medianMs)} (${ms(row.ours.firstMs)}) | ${ms(row.native.medianMs)} (${ms(row.native.firstMs)}) | ${(row.native.medianMs / row.ours.medianMs).toFixed(1)}× | ${row.ours.chars} | ${row.ours.totalChars ?? `≥ ${row.ours.totalCharsAtLeast}`} | ${row.ours.wholeChars} | ${row.ours.leaks.join(', ') || 'none'} | ${row.native.chars} | ${row.native.leaks.join(', ') || 'none'} |`,
  ),
  '',
  `## A browser-tool round trip through the hub (goal: ≤ 5 ms added at p50)`,
  '',
  `The scripted model calls \`highlight_row\` ${ROUNDS} times per turn, ${TURNS} turns per client, the two clients taking turns: the kit's page against a bare page that reads the stream with \`fetch\` and answers a constant (each keeps one conversation across its turns) — same Chromium, same hub, loopback, cross-origin-isolated pages (5 µs timers). *In the page*: from the stream chunk that carries the interrupt to the start of the answer's \`fetch\`, timed by the same wrapper in both pages. *Whole round trip*: from one model call to the next (the hub persists the call, emits the interrupt, the page answers, the hub resumes).`,
  '',
  '| client | in the page p50 / p95 ms | whole round trip p50 / p95 ms | samples | answer body bytes (max) |',
  '|---|---:|---:|---:|---:|',
  ...(['kit', 'bare'] as const).map((name) => {
    const t = roundTrip[name];
    return `| ${name === 'kit' ? 'the kit' : 'bare fetch page'} | ${ms(t.inPage.p50Ms)} / ${ms(t.inPage.p95Ms)} | ${ms(t.roundTrip.p50Ms)} / ${ms(t.roundTrip.p95Ms)} | ${t.roundTrip.samples} | ${t.maxAnswerBytes} |`;
  }),
  '',
  `Added by the kit at p50 (in the page, interrupt received → answer sent): **${ms(roundTrip.addedP50Ms)} ms**; whole round trips kit / bare = ${(roundTrip.kit.roundTrip.p50Ms / roundTrip.bare.roundTrip.p50Ms).toFixed(2)}× (these include the hub's persistence of every step and the machine's load: ${loadAverage}).`,
  '',
].join('\n');
// Runs write under test-results/; `npm run docs:refresh` copies them to bench/results/ (tracked).
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'kit.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'kit.md'), table);
console.log(
  `\n${table}\nWritten to test-results/bench/kit.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
);
