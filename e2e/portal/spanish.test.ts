import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools, waitForAvailability } from './support/automation.js';
import { OWNER_PASSWORD, type PortalHarness, startPortal, visibleText } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/** The Spanish UI, page by page, with no key missing from the catalogue and no raw key on screen. */

type Catalogue = { [key: string]: string | Catalogue };
function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}
const KEYS = keysOf(
  JSON.parse(
    readFileSync(new URL('../../packages/portal/src/i18n/locales/es.json', import.meta.url), 'utf8'),
  ) as Catalogue,
).map((key) => key.replace(/_(one|other)$/, ''));

describe('the portal in Spanish', () => {
  let h: PortalHarness;
  let agent: Agent;
  const screens: string[] = [];

  async function look(label: string): Promise<string> {
    const text = await visibleText(h.page);
    screens.push(`--- ${label}\n${text}`);
    return text;
  }

  beforeAll(async () => {
    h = await startPortal({ webmcp: true, locale: 'es-ES' });
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('signs in through the Spanish sign-in page', async () => {
    await h.page.goto(`${h.server.url}/collections/notes/groceries`);
    await h.page.locator('#email').waitFor();
    expect(await look('sign-in')).toContain('Iniciar sesión');
    expect(await h.page.evaluate(() => document.documentElement.lang)).toBe('es');
    await h.page.locator('#email').fill('owner@localhost');
    await h.page.locator('#password').fill('wrong password');
    await h.page.locator('button[type="submit"]').click();
    await h.page.locator('diosc-sign-in-page [role="alert"]').waitFor();
    expect(await look('sign-in refused')).toContain(
      'El correo electrónico o la contraseña no son correctos.',
    );
    await h.page.locator('#password').fill(OWNER_PASSWORD);
    await h.page.locator('button[type="submit"]').click();
    await h.page.locator('diosc-item-panel #title').waitFor();
  });

  it('renders collections, an item, an inbox message and the new-item dialog', async () => {
    expect(await look('storage item')).toContain('Guardar cambios');
    await h.page.locator('diosc-collections-page a[href="/collections/inbox"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/inbox/welcome"]').click();
    await h.page.locator('diosc-item-panel pre').waitFor();
    expect(await look('inbox message')).toContain('Marcar como leído');
    await h.page.locator('diosc-collections-page a[href="/collections/drive"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/drive/roadmap"]').click();
    await h.page.locator('diosc-item-panel pre').waitFor();
    expect(await look('external mirror')).toContain('copia de solo lectura');
    await h.page.locator('diosc-collections-page a[href="/collections/notes"]').click();
    await h.page.locator('diosc-collections-page .page-head button.primary').click();
    await h.page.locator('diosc-new-item-dialog dialog[open]').waitFor();
    expect(await look('new item')).toContain('Nunca sobrescribe un elemento existente.');
    await h.page.keyboard.press('Escape');
  });

  it('renders Connected apps with its dialogs', async () => {
    await h.page.locator('diosc-side-nav a[href="/connected-apps"]').click();
    await h.page.locator('diosc-connected-apps-page h1').waitFor();
    await h.page.locator('diosc-connected-apps-page .page-head button.primary').click();
    await h.page.locator('#app-name').fill('Asistente');
    await h.page
      .locator('diosc-connection-form-dialog input[data-collection="notes"][data-function="item_read"]')
      .check();
    expect(await look('connect dialog')).toContain('Crear conexión');
    await h.page.locator('diosc-connection-form-dialog button[type="submit"]').click();
    await h.page.locator('diosc-token-dialog dialog[open]').waitFor();
    expect(await look('token')).toContain('Solo se muestra esta vez');
    await h.page.locator('diosc-token-dialog .dialog-actions button').click();
    await h.page.locator('diosc-connected-apps-page td', { hasText: 'Asistente' }).waitFor();
    expect(await look('apps')).toContain('No es una conexión de asistente');
  });

  it('renders the Automation hub, the review dialog, the activity log and the palette', async () => {
    await h.page.locator('diosc-side-nav a[href="/automation-hub"]').click();
    await waitForAvailability(h.page, 'disabled');
    expect(await look('hub disabled')).toContain('Las herramientas del navegador están desactivadas');
    await enableBrowserTools(h.page, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
    agent = await attachAgent(h.page);
    expect(await look('hub registered')).toContain('Herramientas registradas');
    const invocation = await agent.invoke('item_write', {
      collection: 'notes',
      item: 'viaje',
      requestId: 'portal-e2e-es-0001',
      ifNoneMatch: '*',
      content: { title: 'Viaje', body: 'Lisboa' },
    });
    await h.page.locator('diosc-review-dialog dialog[open]').waitFor();
    expect(await look('review')).toContain('Revisar un cambio');
    await h.page.click('diosc-review-dialog button.reject');
    expect(failureText(await agent.responded(invocation))).toMatch(/declined/);
    await h.page.locator('diosc-activity-log td', { hasText: 'portal-e2e-es-0001' }).waitFor();
    expect(await look('activity')).toContain('Rechazado');
    await h.page.keyboard.press('Control+k');
    await h.page.locator('diosc-command-palette dialog[open]').waitFor();
    expect(await look('palette')).toContain('Centro de automatización');
    await h.page.keyboard.press('Escape');
  });

  it('asked for no missing key and shows no raw key', () => {
    expect(h.missingKeys).toEqual([]);
    expect(h.pageErrors).toEqual([]);
    const all = screens.join('\n');
    expect(KEYS.filter((key) => all.includes(key))).toEqual([]);
  });

  it('the language switch changes the UI and is remembered', async () => {
    await h.page.locator('diosc-app diosc-language-switch select').selectOption('en');
    await h.page.locator('diosc-automation-hub-page h1', { hasText: 'Automation hub' }).waitFor();
    await h.page.reload();
    await h.page.locator('diosc-automation-hub-page h1', { hasText: 'Automation hub' }).waitFor();
    expect(await h.page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});
