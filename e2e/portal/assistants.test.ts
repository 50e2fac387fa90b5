import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKitDist } from '@diosc/kit/build';
import { createScriptedModel, type ScriptedCall, type ScriptedStep } from '@diosc/server/scripted';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedSite } from './support/embed-site.js';
import { focused } from './support/focus.js';
import { type PortalHarness, screenshot, signIn, startPortal } from './support/portal-harness.js';

/**
 * The Assistants area end to end in Debian Chromium: an owner creates an assistant with a browser
 * tool, a Sitemap and a Consensus-guarded server tool, copies the embed snippet into a page on
 * another loopback origin, a visitor chats through the kit's widget with the scripted model, and
 * the owner reads the conversation — tool calls and the Consensus decision — in the transcript.
 * Every response the browser receives is scanned for the provider key.
 */

const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const PROVIDER_KEY = `sk-portal-e2e-${crypto.randomUUID()}`;
const MODEL_ID = 'portal-e2e';

const NOTE = {
  collection: 'notes',
  item: 'from-the-assistant',
  requestId: 'portal-assistant-e2e-0001',
  ifNoneMatch: '*',
  content: { title: 'Product 42', body: 'Highlighted for the visitor.' },
};

const SECOND_NOTE = { ...NOTE, item: 'proposed-by-model', requestId: 'portal-assistant-e2e-0002' };

let script: (call: ScriptedCall) => ScriptedStep = () => ({ text: 'No script.' });
const model = createScriptedModel((call) => script(call), { modelId: MODEL_ID });

let h: PortalHarness;
let site: Awaited<ReturnType<typeof startEmbedSite>>;
let kitDir: string;
let assistantId = '';
const bodies: Promise<{ url: string; body: string }>[] = [];

const app = (page: Page) => page.locator('diosc-app');
const field = (page: Page, id: string) => page.locator(`#${id}`);

/** The message a refused field points at through aria-describedby, and its aria-invalid. */
async function refusal(input: Locator): Promise<{ invalid: string | null; message: string }> {
  const invalid = await input.getAttribute('aria-invalid');
  const ids = (await input.getAttribute('aria-describedby')) ?? '';
  const texts = await input.evaluate((element, list) => {
    const root = element.getRootNode() as ShadowRoot | Document;
    return list
      .split(' ')
      .filter(Boolean)
      .map((id) => root.getElementById(id)?.textContent?.trim() ?? '');
  }, ids);
  return { invalid, message: texts.join(' ') };
}

/** A docs screenshot of the page from its top, in a window tall enough for the section. */
async function shot(height: number, take: () => Promise<void>): Promise<void> {
  await h.page.setViewportSize({ width: 1360, height });
  await h.page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await take();
  await h.page.setViewportSize({ width: 1360, height: 900 });
}

/** Waits for the save to be confirmed by its notice; a refusal shown instead fails with its text. */
async function saved(within: string): Promise<void> {
  const alert = h.page.locator(`${within} [role="alert"]`);
  await h.page.getByText('Saved Shop helper.').or(alert).first().waitFor();
  expect(await alert.allTextContents()).toEqual([]);
}

beforeAll(async () => {
  kitDir = join(RESULTS, `portal-assistants-kit-${process.pid}-${Date.now()}`);
  await writeKitDist(kitDir);
  site = await startEmbedSite();
  h = await startPortal({
    webmcp: false,
    server: {
      config: { kitDir },
      app: { hub: { sweepIntervalMs: 100, scriptedModels: { [MODEL_ID]: model } } },
    },
  });
  // Every response the browser gets — portal pages and the embedding site alike — is kept for the scan.
  // A step that does not happen fails in seconds, naming what the page said instead.
  h.page.setDefaultTimeout(10_000);
  h.context.on('response', (response: Response) => {
    bodies.push(
      response
        .text()
        .then((body) => ({ url: response.url(), body }))
        .catch(() => ({ url: response.url(), body: '' })),
    );
  });
  await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
  if (kitDir) rmSync(kitDir, { recursive: true, force: true });
});

describe('the Assistants area', () => {
  it('is in the side navigation, behind `g s` and in the command palette', async () => {
    await signIn(h.page, h.server.url);
    await app(h.page).locator('diosc-side-nav a[href="/assistants"]').click();
    await h.page.locator('diosc-assistants-page h1').waitFor();
    expect(await h.page.locator('diosc-assistants-page h1').textContent()).toBe('Assistants');
    await app(h.page).locator('diosc-side-nav a[href="/collections"]').click();
    await h.page.locator('diosc-collections-page').waitFor();
    await h.page.keyboard.press('g');
    await h.page.keyboard.press('s');
    await h.page.locator('diosc-assistants-page h1').waitFor();
    expect(new URL(h.page.url()).pathname).toBe('/assistants');
    await h.page.keyboard.press('Control+k');
    await h.page.locator('diosc-command-palette dialog[open]').waitFor();
    await h.page.keyboard.type('new assistant');
    await h.page.keyboard.press('Enter');
    await h.page.locator('diosc-assistant-settings #name').waitFor();
    expect(new URL(h.page.url()).pathname).toBe('/assistants/new');
  });

  it('the create form refuses bad input with a message on each field, before the server is asked', async () => {
    // The form starts on the server's automatic choice, which takes no model ID; OpenAI needs one.
    expect(await h.page.locator('#provider').inputValue()).toBe('auto');
    expect(await h.page.locator('diosc-assistant-settings #modelId').count()).toBe(0);
    await h.page.locator('#provider').selectOption('openai');
    await field(h.page, 'name').fill('');
    await field(h.page, 'modelId').fill('');
    await field(h.page, 'origins').fill(`${site.origin}/\nhttps://*.example.com`);
    await field(h.page, 'maxStepsPerTurn').fill('500');
    await h.page.locator('diosc-assistant-settings button[type="submit"]').click();
    expect(await refusal(field(h.page, 'name'))).toEqual({
      invalid: 'true',
      message: 'Give the assistant a name.',
    });
    expect(await refusal(field(h.page, 'modelId'))).toMatchObject({ invalid: 'true' });
    expect((await refusal(field(h.page, 'origins'))).message).toContain(
      `Line 1: “${site.origin}/” has a path, slash, query or fragment. Use exactly ${site.origin}.`,
    );
    expect(await refusal(field(h.page, 'maxStepsPerTurn'))).toMatchObject({
      invalid: 'true',
      message: 'Out of range: use a number from 1 to 50. From 1 to 50.',
    });
    // Focus goes to the first refused field, so a keyboard user lands on it.
    expect((await focused(h.page)).id).toBe('name');
    expect(new URL(h.page.url()).pathname).toBe('/assistants/new');
  });

  it('creates the assistant; the key is sent once and afterwards shown only as set', async () => {
    await field(h.page, 'name').fill('Shop helper');
    await field(h.page, 'instructions').fill(
      'You help visitors of the test shop find products and keep notes.',
    );
    await h.page.locator('#provider').selectOption('scripted');
    await field(h.page, 'modelId').fill(MODEL_ID);
    await field(h.page, 'providerKey').fill(PROVIDER_KEY);
    await field(h.page, 'maxStepsPerTurn').fill('8');
    // An IPv6 origin is exact for the page, but the hub takes host names and IPv4 only: the
    // server's refusal is tied to the field, like the page's own, and nothing was created.
    await field(h.page, 'origins').fill('http://[::1]:8080');
    await h.page.locator('diosc-assistant-settings button[type="submit"]').click();
    await h.page.locator('diosc-assistant-settings [role="alert"]').waitFor();
    const refused = await refusal(field(h.page, 'origins'));
    expect(refused.invalid).toBe('true');
    expect(refused.message).toContain('body.allowedOrigins.0');
    expect((await h.page.locator('diosc-assistant-settings [role="alert"]').textContent())!).toContain(
      'The request was not valid',
    );
    expect(new URL(h.page.url()).pathname).toBe('/assistants/new');
    expect((await h.server.app.diosc.hub!.services.assistants.list(h.server.accountId)).length).toBe(0);
    await field(h.page, 'origins').fill(site.origin);
    await h.page.locator('diosc-assistant-settings button[type="submit"]').click();
    await h.page
      .locator('diosc-browser-tools-editor, diosc-assistant-settings [role="alert"]')
      .first()
      .waitFor();
    expect(await h.page.locator('diosc-assistant-settings [role="alert"]').count()).toBe(0);
    const path = new URL(h.page.url()).pathname;
    expect(path).toMatch(/^\/assistants\/[^/]+\/tools$/);
    assistantId = decodeURIComponent(path.split('/')[2]!);
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Settings' }).click();
    await h.page.locator('[data-secret="provider-key"]').waitFor();
    expect(await h.page.locator('[data-secret="provider-key"]').textContent()).toBe('Key set');
    expect(await h.page.locator('#providerKey').count()).toBe(0);
    await h.page.locator('#test-connection').click();
    await h.page.locator('diosc-assistant-settings .notice.ok').waitFor();
    await shot(1250, () => screenshot(h.page, 'assistant-settings.png'));
  });

  it('declares a browser tool: a bad schema is refused, a good one previewed as the model sees it', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Tools' }).click();
    await h.page.locator('#add-browser-tool').click();
    await field(h.page, 'tool-name').fill('highlight row');
    await field(h.page, 'tool-description').fill('Highlight a row of the products table.');
    await field(h.page, 'tool-schema').fill('{"type":"object","properties":{"id":{"type":"strng"}}');
    await h.page.locator('diosc-browser-tools-editor form button[type="submit"]').click();
    expect((await refusal(field(h.page, 'tool-name'))).message).toContain(
      '“highlight row” is not a tool name',
    );
    expect((await refusal(field(h.page, 'tool-schema'))).message).toContain('The schema is not valid JSON');
    await field(h.page, 'tool-name').fill('highlight_row');
    await field(h.page, 'tool-schema').fill(
      JSON.stringify(
        {
          type: 'object',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string', description: 'The product id' } },
        },
        null,
        2,
      ),
    );
    await h.page
      .locator('diosc-browser-tools-editor [role="status"]', { hasText: 'Checked by the hub' })
      .waitFor();
    const preview = JSON.parse(
      (await h.page.locator('diosc-browser-tools-editor pre.preview').textContent())!,
    );
    expect(preview).toMatchObject({
      name: 'highlight_row',
      description: 'Highlight a row of the products table.',
    });
    expect(preview.inputSchema.required).toEqual(['id']);
    await shot(1000, () => screenshot(h.page, 'assistant-tools.png'));
    await h.page.locator('diosc-browser-tools-editor form button[type="submit"]').click();
    await h.page.locator('diosc-browser-tools-editor li strong', { hasText: 'highlight_row' }).waitFor();
  });

  it('grants item_write on notes with the Connected apps picker, behind high-severity Consensus', async () => {
    const editor = h.page.locator('diosc-server-tools-editor');
    await editor.locator('input[data-collection="notes"][data-function="item_write"]').check();
    await editor.locator('#add-mcp-server').click();
    await field(h.page, 'mcp-name-0').fill('Bad Name');
    await field(h.page, 'mcp-url-0').fill('ftp://mcp.example');
    await editor.locator('button[type="submit"]').click();
    expect((await refusal(field(h.page, 'mcp-name-0'))).invalid).toBe('true');
    expect((await refusal(field(h.page, 'mcp-url-0'))).message).toBe(
      'A URL starting with http:// or https://.',
    );
    await editor.locator('li.item button.danger').click();
    await editor.locator('select[data-tool="item_write"]').selectOption('high');
    await editor.locator('button[type="submit"]').click();
    await saved('diosc-server-tools-editor');
    // The grant is an app connection, listed in Connected apps like any other.
    await app(h.page).locator('diosc-side-nav a[href="/connected-apps"]').click();
    await h.page.locator('diosc-connected-apps-page td', { hasText: 'Shop helper' }).waitFor();
    await h.page.goBack();
    await h.page.locator('diosc-server-tools-editor select[data-tool="item_write"]').waitFor();
    expect(await h.page.locator('select[data-tool="item_write"]').inputValue()).toBe('high');
  });

  it('edits the Sitemap: bad routes refused (by the page and by the hub), the tester, saved', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Sitemap' }).click();
    await h.page.locator('#add-route').click();
    await field(h.page, 'route-path-0').fill('products');
    await h.page.locator('diosc-sitemap-editor form.card button[type="submit"]').click();
    expect(await refusal(field(h.page, 'route-path-0'))).toEqual({
      invalid: 'true',
      message: 'A pattern starts with /, such as /products/:id.',
    });
    expect((await refusal(field(h.page, 'route-title-0'))).message).toBe('Give the route a title.');
    // The page lets this through; the hub's own pattern check refuses it, and says why.
    await field(h.page, 'route-path-0').fill('/products/:id/:id');
    await field(h.page, 'route-title-0').fill('A product');
    await h.page.locator('diosc-sitemap-editor form.card button[type="submit"]').click();
    await h.page.locator('diosc-sitemap-editor [role="alert"]').waitFor();
    expect(await h.page.locator('diosc-sitemap-editor [role="alert"]').textContent()).toContain(':id');
    await field(h.page, 'route-path-0').fill('/products/:id');
    await h.page.locator('#add-route').click();
    await field(h.page, 'route-path-1').fill('/');
    await field(h.page, 'route-title-1').fill('Catalogue');
    await field(h.page, 'test-path').fill('/products/42');
    await h.page.locator('diosc-sitemap-editor section form button[type="submit"]').first().click();
    await h.page.locator('#test-result .notice.ok').waitFor();
    expect(await h.page.locator('#test-result').textContent()).toContain(
      '/products/42 is allowed: it matches /products/:id (A product).',
    );
    await shot(1000, () => screenshot(h.page, 'assistant-sitemap.png'));
    await field(h.page, 'test-path').fill('/admin');
    await h.page.locator('diosc-sitemap-editor section form button[type="submit"]').first().click();
    await h.page.locator('#test-result .notice.error').waitFor();
    expect(await h.page.locator('#test-result').textContent()).toContain('/admin would be refused.');
    // Import: a bad URL is refused by the page, a private address by the server; a file is parsed.
    const importer = h.page.locator('diosc-sitemap-editor section', { hasText: 'Import from sitemap.xml' });
    await field(h.page, 'import-url').fill('sitemap.xml');
    await importer.locator('button[type="submit"]').click();
    await importer.locator('.notice.error').waitFor();
    expect(await importer.locator('.notice.error').textContent()).toBe(
      'Give the sitemap.xml URL, starting with http:// or https://.',
    );
    await field(h.page, 'import-url').fill('http://10.0.0.1/sitemap.xml');
    await importer.locator('button[type="submit"]').click();
    await importer.locator('.notice.error', { hasText: 'does not fetch' }).waitFor();
    await h.page.locator('#import-file').setInputFiles({
      name: 'sitemap.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/about</loc></url><url><loc>https://elsewhere.example/x</loc></url></urlset>`,
      ),
    });
    await importer.locator('.notice.ok').waitFor();
    expect(await importer.locator('.notice.ok').textContent()).toContain('Added 1 route');
    expect(await field(h.page, 'route-path-2').inputValue()).toBe('/about');
    await h.page.locator('diosc-sitemap-editor form.card button[type="submit"]').click();
    await saved('diosc-sitemap-editor');
  });

  it('copies the embed snippet into a page on another origin; a visitor chats through the widget', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Embed' }).click();
    await h.page.locator('#snippet').waitFor();
    const key = (await h.page.locator('#publishable-key').textContent())!;
    expect(await h.page.locator('#snippet').textContent()).toContain(key);
    expect(await h.page.locator('#esm').textContent()).toContain(key);
    await shot(1000, () => screenshot(h.page, 'assistant-embed.png'));
    await h.page.locator('#copy-snippet').click();
    await h.page.locator('diosc-embed-panel [role="status"]', { hasText: 'Copied.' }).first().waitFor();
    const pasted = await h.page.evaluate(() => navigator.clipboard.readText());
    expect(pasted).toBe(await h.page.locator('#snippet').textContent());
    site.paste(pasted);
    // The live preview on the hub embeds the widget for this assistant.
    const [preview] = await Promise.all([
      h.context.waitForEvent('page'),
      h.page.locator('#preview-link').click(),
    ]);
    await preview.locator('diosc-widget .launcher').waitFor();
    expect(new URL(preview.url()).pathname).toBe(
      `/api/owner/assistants/${encodeURIComponent(assistantId)}/preview`,
    );
    await preview.close();

    // Two turns: a browser tool, then item_write (approved); then item_write again (edited).
    const steps: ScriptedStep[] = [
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
      { toolCalls: [{ toolName: 'item_write', input: NOTE }] },
      { text: 'Highlighted product 42 and saved a note.' },
      { toolCalls: [{ toolName: 'item_write', input: SECOND_NOTE }] },
      { text: 'Saved the second note.' },
    ];
    script = () => steps.shift() ?? { text: 'The script has no more steps.' };
    const visitor = await h.context.newPage();
    await visitor.goto(`${site.origin}/products/42`);
    await visitor.locator('diosc-widget .launcher').click();
    await visitor.locator('diosc-widget textarea').fill('Show me product 42 and note it down');
    await visitor.locator('diosc-widget textarea').press('Enter');
    const consent = visitor.locator('diosc-consensus-dialog dialog');
    await consent.waitFor();
    await visitor.getByRole('button', { name: 'Approve' }).click();
    await visitor.locator('diosc-widget', { hasText: 'Highlighted product 42 and saved a note.' }).waitFor();
    expect(
      await visitor.evaluate(() => (window as unknown as { highlighted: string[] }).highlighted),
    ).toEqual(['42']);
    // The visitor changes the item's name in the Edit form before it runs.
    await visitor.locator('diosc-widget textarea').fill('Save another note');
    await visitor.locator('diosc-widget textarea').press('Enter');
    await consent.waitFor();
    await visitor.getByRole('button', { name: 'Edit' }).click();
    await visitor.getByLabel('item *').fill('edited-by-visitor');
    await visitor.getByRole('button', { name: 'Run with these values' }).click();
    await visitor.locator('diosc-widget', { hasText: 'Saved the second note.' }).waitFor();
    await visitor.close();
  });

  it('shows the conversation, its tool calls and the Consensus decisions (one an edit) in the transcript', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Conversations' }).click();
    const row = h.page.locator('diosc-conversations-panel tr[data-conversation]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('highlight_row');
    expect(await row.first().textContent()).toContain('item_write');
    await row.first().locator('a').click();
    const view = h.page.locator('diosc-transcript-view');
    await view.locator('[data-tool="item_write"]').first().waitFor();
    expect(await view.locator('[data-tool="highlight_row"] .badge').first().textContent()).toBe(
      'Browser tool',
    );
    const decisions = view.locator('[data-tool="item_write"] [data-consensus]');
    expect(await decisions.count()).toBe(2);
    expect(await decisions.nth(0).getAttribute('data-consensus')).toBe('approve');
    expect(await decisions.nth(0).textContent()).toContain('Approved');
    // The edit: what the model proposed, what ran, and which argument the visitor changed.
    expect(await decisions.nth(1).getAttribute('data-consensus')).toBe('edit');
    expect(await decisions.nth(1).textContent()).toContain('The visitor changed: item');
    expect(JSON.parse((await decisions.nth(1).locator('[data-proposed]').textContent())!)).toMatchObject({
      item: 'proposed-by-model',
    });
    expect(JSON.parse((await decisions.nth(1).locator('[data-ran]').textContent())!)).toMatchObject({
      item: 'edited-by-visitor',
    });
    expect(await view.locator('.text[data-role="user"]').allTextContents()).toEqual([
      'Show me product 42 and note it down',
      'Save another note',
    ]);
    expect(await view.locator('.text[data-role="assistant"]').allTextContents()).toEqual([
      'Highlighted product 42 and saved a note.',
      'Saved the second note.',
    ]);
    await shot(1400, () => screenshot(h.page, 'assistant-transcript.png'));
  });

  it('shows usage per day as an SVG chart with the numbers in a table', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Usage' }).click();
    await h.page.locator('diosc-usage-panel svg.chart').first().waitFor();
    expect(
      await h.page.locator('diosc-usage-panel svg.chart rect[height]:not([height="0.00"])').count(),
    ).toBeGreaterThan(2);
    await shot(900, () => screenshot(h.page, 'assistant-usage.png'));
  });

  it('shows the audit of the visitor’s two decisions, filtered to Consensus decisions', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Audit' }).click();
    await h.page.locator('diosc-audit-panel tr[data-audit]').first().waitFor();
    // Unfiltered, the assistant's account grant is there too; filtered, only the two decisions.
    const grants = h.page.locator('diosc-audit-panel tr[data-audit]', { hasText: 'Connection grant' });
    await grants.first().waitFor();
    await h.page.locator('#audit-kind').selectOption('consensus_decision');
    await grants.first().waitFor({ state: 'detached' });
    const rows = h.page.locator('diosc-audit-panel tr[data-audit]');
    const texts = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' '));
    expect(texts).toHaveLength(2);
    // Newest first: the edit of the item's name, then the approval; names only, never values.
    expect(texts[0]).toContain('Edited fields: item');
    expect(texts[0]).toContain('Edited');
    expect(texts[1]).toContain('Approved');
    for (const text of texts) {
      expect(text).toContain('Visitor');
      expect(text).toContain('item_write');
      expect(text).not.toContain('edited-by-visitor');
    }
  });

  it('deletes a conversation after asking', async () => {
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Conversations' }).click();
    await h.page.locator('diosc-conversations-panel tr[data-conversation] a').first().click();
    await h.page.locator('#delete-conversation').click();
    const confirm = h.page.locator('diosc-conversations-panel diosc-confirm-dialog dialog[open]');
    await confirm.waitFor();
    await confirm.locator('.cancel').click();
    expect(await h.page.locator('diosc-transcript-view').count()).toBe(1);
    await h.page.locator('#delete-conversation').click();
    await confirm.locator('button.danger-fill').click();
    await h.page.locator('diosc-conversations-panel .empty').waitFor();
    await h.page.locator('diosc-assistant-detail nav a', { hasText: 'Settings' }).click();
    await h.page.locator('diosc-assistants-page a', { hasText: 'All assistants' }).click();
    await h.page.locator(`tr[data-assistant="${assistantId}"]`).waitFor();
    await shot(700, () => screenshot(h.page, 'assistants-list.png'));
  });

  it('never returned the provider key in any response the browser received', async () => {
    const received = await Promise.all(bodies);
    expect(received.length).toBeGreaterThan(20);
    expect(
      received.some((r) => r.url.includes(`/api/owner/assistants/${encodeURIComponent(assistantId)}`)),
    ).toBe(true);
    expect(received.filter((r) => r.body.includes(PROVIDER_KEY)).map((r) => r.url)).toEqual([]);
  });
});
