import type {
  AssistantView,
  McpCheckResult,
  SitemapImportResult,
  SitemapTestResult,
  ToolsPreviewResult,
} from '@diosc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { offeredTools } from '../../../src/hub/turns/offered-tools.js';
import { describeOnDialects } from '../../hub/support/hub-server.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://shop.example/</loc></url>
  <url><loc>https://shop.example/products/red-shoes</loc></url>
  <url><loc>https://elsewhere.example/about</loc></url>
</urlset>`;

const HIGHLIGHT = {
  name: 'highlight_row',
  description: 'Highlight a row.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

describeOnDialects('assistant admin: tools preview, MCP check, Sitemap', () => {
  let admin: AdminHarness;
  let site: FakeUpstream;
  let id: string;
  let mcpToken: string;
  beforeAll(async () => {
    // Loopback is what these tests run on: the operator's switch lets owner-given URLs reach it.
    admin = await startAdmin({ hub: { fetchPrivate: true } });
    site = await startFakeUpstream((path) =>
      path === '/sitemap.xml'
        ? { status: 200, body: SITEMAP, type: 'application/xml' }
        : path === '/big.xml'
          ? { status: 200, body: `<urlset>${' '.repeat(6 * 1024 * 1024)}</urlset>`, type: 'application/xml' }
          : path === '/moved'
            ? { status: 302, body: '', headers: { location: '/sitemap.xml' } }
            : { status: 404, body: 'no' },
    );
    const issued = await admin.server.app.diosc.connections.createMcp(admin.owner.accountId, {
      displayName: 'This server as an MCP server',
      grant: [{ collection: 'notes', functions: ['items_list'] }],
      provenance: 'test',
    });
    mcpToken = issued.token;
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: {
        name: 'Tools',
        model: { provider: 'scripted', id: 'test' },
        allowedOrigins: ['https://shop.example'],
        browserTools: [HIGHLIGHT],
        sitemap: [
          { path: '/products/:id', title: 'Product' },
          { path: '/products/new', title: 'New product' },
        ],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_read'] }] },
          mcpServers: [{ name: 'self', url: `${admin.server.url}/mcp`, token: mcpToken }],
          generateFile: { enabled: true, formats: ['csv'] },
          consensus: { generate_file: 'medium' },
        },
      },
    });
    id = created.body.assistant.id;
  });
  afterAll(async () => {
    for (const body of admin.seen) expect(body).not.toContain(mcpToken);
    await Promise.all([admin.server.close(), site.close()]);
  });

  it('previews exactly the tools the turn runner would offer, and what it leaves out', async () => {
    const preview = await admin.api<ToolsPreviewResult>(`/${id}/tools/preview`, { body: {} });
    expect(preview.status).toBe(200);
    const hub = admin.server.app.diosc.hub!.services;
    const assistant = (await hub.assistants.find(id))!;
    const set = await hub.serverToolSetFor(assistant, { mcp: false });
    const expected = offeredTools(
      assistant.config,
      { tools: ['navigate', 'read_page', 'highlight_row'], intents: [] },
      set.tools,
    );
    await set.close();
    expect(preview.body.tools.map((tool) => tool.name)).toEqual([...expected.keys()]);
    expect(preview.body.tools.map((tool) => tool.name)).toEqual([
      'navigate',
      'read_page',
      'highlight_row',
      'collections_list',
      'items_list',
      'item_read',
      'generate_file',
    ]);
    expect(preview.body.tools.find((tool) => tool.name === 'generate_file')).toMatchObject({
      kind: 'server',
      severity: 'medium',
    });
    expect(preview.body.tools.find((tool) => tool.name === 'highlight_row')).toEqual({
      ...HIGHLIGHT,
      kind: 'browser',
      severity: null,
    });
    expect(preview.body.notOffered).toEqual([]);
    expect(preview.body.mcpErrors).toEqual([]);

    // A page with only read_page, and a draft without a Sitemap: navigate and the tool go, and say why.
    const draft = await admin.api<ToolsPreviewResult>(`/${id}/tools/preview`, {
      body: { pageTools: ['read_page', 'navigate'], sitemap: [], consensus: {} },
    });
    expect(draft.body.tools.map((tool) => tool.name).slice(0, 1)).toEqual(['read_page']);
    expect(draft.body.notOffered.map((entry) => entry.name)).toEqual(['navigate', 'highlight_row']);
    expect(draft.body.tools.find((tool) => tool.name === 'generate_file')?.severity).toBeNull();
  });

  it('lists MCP server tools in the preview on request, through the official client', async () => {
    const preview = await admin.api<ToolsPreviewResult>(`/${id}/tools/preview`, {
      body: { connectMcp: true },
    });
    expect(preview.body.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['self__items_list', 'self__collections_list']),
    );
    expect(preview.body.mcpErrors).toEqual([]);
  });

  it('refuses a draft tool whose schema is not JSON Schema, and unknown preview fields', async () => {
    const bad = await admin.api(`/${id}/tools/preview`, {
      body: { browserTools: [{ ...HIGHLIGHT, inputSchema: { type: 'object', properties: 5 } }] },
    });
    expect(codeOf(bad.body)).toBe('invalid_input');
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/not valid JSON Schema/);
    const extra = await admin.api(`/${id}/tools/preview`, {
      body: { browserTools: [{ ...HIGHLIGHT, extra: 1 }] },
    });
    expect(codeOf(extra.body)).toBe('invalid_input');
  });

  it('checks a saved MCP server with its stored token, and a draft url with a wrong one', async () => {
    const saved = await admin.api<McpCheckResult>(`/${id}/mcp-check`, { body: { name: 'self' } });
    expect(saved.body).toMatchObject({
      ok: true,
      tools: expect.arrayContaining([expect.objectContaining({ name: 'self__items_list' })]),
    });
    const wrong = await admin.api<McpCheckResult>(`/${id}/mcp-check`, {
      body: { url: `${admin.server.url}/mcp`, token: 'dsc_wrong-token-for-the-check' },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ ok: false, error: { code: 'tool_failed' } });
    expect(JSON.stringify(wrong.body)).not.toContain('dsc_wrong-token-for-the-check');
    for (const body of [{}, { name: 'self', url: 'https://a.example' }, { name: 'self', token: 'x' }]) {
      expect(codeOf((await admin.api(`/${id}/mcp-check`, { body })).body), JSON.stringify(body)).toBe(
        'invalid_input',
      );
    }
    expect(codeOf((await admin.api(`/${id}/mcp-check`, { body: { name: 'other' } })).body)).toBe('not_found');
    const unknown = await admin.api(`/${id}/mcp-check`, {
      body: { url: `${admin.server.url}/mcp`, headers: {} },
    });
    expect(codeOf(unknown.body)).toBe('invalid_input');
  });

  it('tests paths against the stored routes or a draft, with the hub’s own check', async () => {
    const test = (body: unknown) => admin.api<SitemapTestResult>(`/${id}/sitemap/test`, { body });
    expect((await test({ path: '/products/42' })).body).toEqual({
      allowed: true,
      route: { path: '/products/:id', title: 'Product' },
    });
    expect((await test({ path: '/products/new' })).body).toMatchObject({ route: { title: 'New product' } });
    const refused = (await test({ path: '/admin' })).body;
    expect(refused).toMatchObject({ allowed: false, code: 'path_not_in_sitemap' });
    expect((await test({ path: '//evil.example/x' })).body).toMatchObject({ allowed: false });
    expect((await test({ path: '/about', routes: [{ path: '/about', title: 'About' }] })).body).toMatchObject(
      {
        allowed: true,
      },
    );
    expect(codeOf((await test({ path: '/x', routes: [{ path: 'nope', title: 'x' }] })).body)).toBe(
      'invalid_input',
    );
    expect(codeOf((await test({ path: '/x', extra: 1 })).body)).toBe('invalid_input');
  });

  it('imports routes from an uploaded sitemap.xml and from a URL, saving nothing', async () => {
    const before = await admin.snapshot();
    const uploaded = await admin.api<SitemapImportResult>(`/${id}/sitemap/import`, {
      body: { xml: SITEMAP },
    });
    expect(uploaded.body).toEqual({
      origin: 'https://shop.example',
      routes: [
        { path: '/', title: 'Home' },
        { path: '/products/red-shoes', title: 'Red shoes' },
      ],
    });
    const fetched = await admin.api<SitemapImportResult>(`/${id}/sitemap/import`, {
      body: { url: `${site.url}/moved`, origin: 'https://shop.example' },
    });
    expect(fetched.body.routes).toHaveLength(2);
    expect(site.requests.map((request) => request.url)).toEqual(['/moved', '/sitemap.xml']);
    expect(await admin.snapshot()).toBe(before);
  });

  it('answers fetch_failed for a missing or oversized sitemap, invalid_input for a hostile one', async () => {
    const missing = await admin.api(`/${id}/sitemap/import`, { body: { url: `${site.url}/gone.xml` } });
    expect([missing.status, codeOf(missing.body)]).toEqual([502, 'fetch_failed']);
    const big = await admin.api(`/${id}/sitemap/import`, { body: { url: `${site.url}/big.xml` } });
    expect([big.status, codeOf(big.body)]).toEqual([502, 'fetch_failed']);
    const doctype = await admin.api(`/${id}/sitemap/import`, {
      body: { xml: '<!DOCTYPE x [<!ENTITY a "b">]><urlset></urlset>' },
    });
    expect(codeOf(doctype.body)).toBe('invalid_input');
    for (const body of [
      {},
      { url: 'file:///etc/passwd' },
      { url: `${site.url}/x`, xml: '<urlset/>' },
      { xml: '<urlset/>', follow: true },
      { xml: '<urlset/>', origin: 'https://shop.example/path' },
    ]) {
      expect(codeOf((await admin.api(`/${id}/sitemap/import`, { body })).body), JSON.stringify(body)).toBe(
        'invalid_input',
      );
    }
  });

  it('serves the embed snippet with the publishable key filled in', async () => {
    const embed = await admin.api<{
      snippet: string;
      esm: string;
      publishableKey: string;
      previewUrl: string;
      strictSnippet: string;
      strictPolicy: string;
    }>(`/${id}/embed`);
    const { publishableKey, snippet, esm } = embed.body;
    expect(snippet).toContain(
      `diosc('init', { hubUrl: "${admin.server.url}", publishableKey: "${publishableKey}" });`,
    );
    expect(snippet).toContain(
      'window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};',
    );
    expect(snippet).toContain(`<script async src="${admin.server.url}/kit/diosc-kit.js"></script>`);
    expect(snippet).toContain(`// diosc('tool', "highlight_row"`);
    expect(esm).toMatch(new RegExp(`^import \\{ diosc \\} from "${admin.server.url}/kit/diosc-kit\\.mjs";`));
    expect(embed.body.previewUrl).toBe(`/api/owner/assistants/${id}/preview`);
    // The strict-CSP variant: no inline script at all, the kit started from its tag's data-*.
    const { strictSnippet, strictPolicy } = embed.body;
    expect(strictSnippet).toContain(
      `<script async src="${admin.server.url}/kit/diosc-kit.js" data-hub-url="${admin.server.url}" data-publishable-key="${publishableKey}"></script>`,
    );
    expect(strictSnippet).not.toMatch(/<script>/);
    const origin = new URL(admin.server.url).origin;
    expect(strictPolicy).toBe(
      `script-src 'self' ${origin}; connect-src ${origin}; require-trusted-types-for 'script'; trusted-types lit-html diosc-kit`,
    );
  });
});

describeOnDialects('assistant admin: owner-given URLs never reach private addresses by default', () => {
  let admin: AdminHarness;
  let site: FakeUpstream;
  beforeAll(async () => {
    admin = await startAdmin();
    site = await startFakeUpstream(() => ({ status: 200, body: SITEMAP, type: 'application/xml' }));
  });
  afterAll(async () => {
    await Promise.all([admin.server.close(), site.close()]);
  });

  it('refuses loopback, private and metadata addresses, by literal or by name, with nothing fetched', async () => {
    const id = admin.server.assistant.id;
    const port = new URL(site.url).port;
    for (const url of [
      `${site.url}/sitemap.xml`,
      `http://localhost:${port}/sitemap.xml`,
      `http://[::1]:${port}/sitemap.xml`,
      `http://[::ffff:127.0.0.1]:${port}/sitemap.xml`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/sitemap.xml',
      'http://user:pw@shop.example/sitemap.xml',
    ]) {
      const answer = await admin.api(`/${id}/sitemap/import`, {
        body: { url, origin: 'https://shop.example' },
      });
      expect([url, answer.status, codeOf(answer.body)]).toEqual([url, 403, 'fetch_refused']);
    }
    const mcp = await admin.api(`/${id}/mcp-check`, { body: { url: `http://localhost:${port}/mcp` } });
    expect(codeOf(mcp.body)).toBe('fetch_refused');
    const mcpLiteral = await admin.api(`/${id}/mcp-check`, { body: { url: `${admin.server.url}/mcp` } });
    expect(codeOf(mcpLiteral.body)).toBe('fetch_refused');
    expect(site.requests).toEqual([]);
  });
});
