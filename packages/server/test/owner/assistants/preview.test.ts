import type { AssistantView } from '@diosc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDialects, HubClient } from '../../hub/support/hub-server.js';
import { call } from '../owner-client.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

describeOnDialects('assistant admin: the hub’s live preview page', () => {
  let admin: AdminHarness;
  let assistant: AssistantView;
  beforeAll(async () => {
    admin = await startAdmin();
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: { name: '</title><script>alert(1)</script>', model: { provider: 'scripted', id: 'test' } },
    });
    assistant = created.body.assistant;
  });
  afterAll(() => admin.server.close());

  it('serves a page that loads the kit under a nonce-only CSP, the name as text', async () => {
    const response = await call(admin.server.url, `/assistants/${assistant.id}/preview`, admin.owner);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    const html = await response.text();
    expect(html).toContain(`<script async src="/kit/diosc-kit.js" nonce="${nonce}"></script>`);
    expect(html).toContain(`"publishableKey":"${assistant.publishableKey}","open":true`);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    // Every script on the page carries the nonce: nothing else could run.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts).toHaveLength(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce each time.
    const again = await call(admin.server.url, `/assistants/${assistant.id}/preview`, admin.owner);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce!);
  });

  it('needs the owner session; another origin still cannot open visitor sessions', async () => {
    const anonymous = await call(admin.server.url, `/assistants/${assistant.id}/preview`, null);
    expect(anonymous.status).toBe(401);
    // The hub's own origin opens a session for the preview, without being an allowed origin …
    const preview = new HubClient(admin.server.url, admin.server.url);
    const session = await preview.open(assistant.publishableKey);
    expect(session.assistant.id).toBe(assistant.id);
    // … and any other origin is refused as before.
    const elsewhere = await fetch(`${admin.server.url}/api/hub/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.localhost:4173' },
      body: JSON.stringify({ publishableKey: assistant.publishableKey }),
    });
    expect(codeOf(await elsewhere.json())).toBe('origin_not_allowed');
  });
});
