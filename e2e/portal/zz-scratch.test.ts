import { it } from 'vitest';
import { createAssistant } from '../../packages/server/src/hub/assistants/assistant-admin.js';
import { signIn, startPortal } from './support/portal-harness.js';

it('scratch screenshots', async () => {
  const h = await startPortal({ webmcp: false });
  h.page.setDefaultTimeout(8000);
  const a = await createAssistant(h.server.app.diosc, h.server.accountId, {
    name: 'Shop helper',
    model: { provider: 'scripted', id: 'demo' },
    allowedOrigins: ['http://127.0.0.1:5173'],
    browserTools: [
      {
        name: 'highlight_row',
        description: 'Highlight a row',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      },
    ],
    sitemap: [{ path: '/products/:id', title: 'Product' }],
  });
  await signIn(h.page, h.server.url, '/assistants');
  for (const section of ['', '/settings', '/tools', '/sitemap']) {
    await h.page.goto(`${h.server.url}/assistants${section ? `/${a.id}${section}` : ''}`);
    await h.page.waitForTimeout(1200);
    await h.page.screenshot({
      path: `/tmp/pui/shot${section.replace('/', '-') || '-list'}.png`,
      fullPage: true,
    });
  }
  console.log(h.pageErrors, h.missingKeys);
  await h.close();
}, 60_000);
