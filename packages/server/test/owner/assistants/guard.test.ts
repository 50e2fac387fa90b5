import { createTestAccount } from '@diosc/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAssistant } from '../../../src/hub/assistant-admin/assistant-admin.js';
import { describeOnDialects } from '../../hub/support/hub-server.js';
import { type OwnerSession, signIn } from '../owner-client.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

const OTHER_KEY = 'sk-ant-other-account-key-000111';

/** Every assistant admin route, with a body that would be accepted from the right caller. */
function routes(id: string, conversation: string): { method: string; path: string; body?: unknown }[] {
  return [
    { method: 'GET', path: '' },
    { method: 'POST', path: '', body: { name: 'Intruder' } },
    { method: 'GET', path: `/${id}` },
    { method: 'PATCH', path: `/${id}`, body: { instructions: 'Obey the intruder.' } },
    { method: 'DELETE', path: `/${id}` },
    { method: 'POST', path: '/test-connection', body: { model: { provider: 'scripted', id: 'test' } } },
    { method: 'POST', path: `/${id}/test-connection`, body: {} },
    { method: 'POST', path: `/${id}/tools/preview`, body: {} },
    { method: 'POST', path: `/${id}/mcp-check`, body: { url: 'https://mcp.example/mcp' } },
    { method: 'POST', path: `/${id}/sitemap/test`, body: { path: '/' } },
    {
      method: 'POST',
      path: `/${id}/sitemap/import`,
      body: { xml: '<urlset></urlset>', origin: 'https://a.example' },
    },
    { method: 'GET', path: `/${id}/embed` },
    { method: 'GET', path: `/${id}/preview` },
    { method: 'GET', path: `/${id}/conversations` },
    { method: 'GET', path: `/${id}/conversations/${conversation}` },
    { method: 'DELETE', path: `/${id}/conversations/${conversation}` },
    { method: 'GET', path: `/${id}/usage` },
    { method: 'GET', path: `/${id}/audit` },
    { method: 'GET', path: `/${id}/files/fil_00000000-0000-4000-8000-000000000000` },
  ];
}

describeOnDialects('assistant admin: refused from the attacker’s side', () => {
  let admin: AdminHarness;
  let intruder: OwnerSession;
  let victimId: string;
  let victimConversation: string;
  beforeAll(async () => {
    admin = await startAdmin();
    // The owner's assistant has a conversation, so there is something to take.
    const visit = await admin.server.visit();
    victimConversation = visit.conversation;
    victimId = admin.server.assistant.id;
    await admin.server.app.diosc.hub!.services.assistants.update(
      admin.owner.accountId,
      victimId,
      {},
      { providerKey: OTHER_KEY },
    );
    await createTestAccount(admin.server.store, {
      email: 'intruder@localhost',
      password: 'intruder password',
    });
    intruder = await signIn(admin.server.url, 'intruder password', 'intruder@localhost');
  });
  afterAll(async () => {
    for (const body of admin.seen) expect(body).not.toContain(OTHER_KEY);
    await admin.server.close();
  });

  it('refuses every route without a session, and a bearer token unread', async () => {
    for (const route of routes(victimId, victimConversation)) {
      const before = await admin.snapshot();
      const answer = await admin.as(null, route.path, { method: route.method, body: route.body });
      expect([route.method, route.path, answer.status, codeOf(answer.body)]).toEqual([
        route.method,
        route.path,
        401,
        'unauthenticated',
      ]);
      const bearer = await admin.as(admin.owner, route.path, {
        method: route.method,
        body: route.body,
        headers: { authorization: 'Bearer dsc_whatever' },
      });
      expect(codeOf(bearer.body), `${route.method} ${route.path}`).toBe('unauthenticated');
      expect(await admin.snapshot()).toBe(before);
    }
  });

  it('refuses every mutation with a wrong Origin or without the CSRF token, and any cross-site request', async () => {
    for (const route of routes(victimId, victimConversation)) {
      const before = await admin.snapshot();
      const label = `${route.method} ${route.path}`;
      if (route.method !== 'GET') {
        const origin = await admin.api(route.path, {
          method: route.method,
          body: route.body,
          headers: { origin: 'https://evil.example' },
        });
        expect([label, origin.status, codeOf(origin.body)]).toEqual([label, 403, 'forbidden_origin']);
        const csrf = await admin.api(route.path, {
          method: route.method,
          body: route.body,
          headers: { 'x-csrf-token': undefined },
        });
        expect([label, csrf.status, codeOf(csrf.body)]).toEqual([label, 403, 'csrf_failed']);
        const wrong = await admin.api(route.path, {
          method: route.method,
          body: route.body,
          headers: { 'x-csrf-token': intruder.csrfToken },
        });
        expect([label, codeOf(wrong.body)]).toEqual([label, 'csrf_failed']);
      }
      const crossSite = await admin.api(route.path, {
        method: route.method,
        body: route.body,
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect([label, codeOf(crossSite.body)]).toEqual([label, 'cross_site']);
      expect(await admin.snapshot(), label).toBe(before);
    }
  });

  it("answers another account's assistant and conversation exactly like ones that do not exist", async () => {
    const mine = await createAssistant(admin.server.app.diosc, intruder.accountId, {
      name: 'Intruder assistant',
      model: { provider: 'scripted', id: 'test' },
    });
    for (const route of routes(victimId, victimConversation)) {
      if (!route.path.startsWith(`/${victimId}`)) continue;
      const before = await admin.snapshot();
      const label = `${route.method} ${route.path}`;
      const answer = await admin.as(intruder, route.path, { method: route.method, body: route.body });
      expect([label, answer.status, codeOf(answer.body)]).toEqual([label, 404, 'not_found']);
      const missing = await admin.as(intruder, route.path.replace(victimId, 'ast_doesnotexist'), {
        method: route.method,
        body: route.body,
      });
      // Same code, same words: the message names only the id the caller sent.
      expect(JSON.stringify(missing.body).replace('ast_doesnotexist', victimId)).toBe(
        JSON.stringify(answer.body),
      );
      // The victim's conversation through the intruder's own assistant: not found either.
      if (route.path.includes('/conversations/')) {
        const through = await admin.as(intruder, route.path.replace(victimId, mine.id), {
          method: route.method,
          body: route.body,
        });
        expect([label, codeOf(through.body)]).toEqual([label, 'not_found']);
      }
      expect(await admin.snapshot(), label).toBe(before);
    }
    // The intruder's list holds only its own assistant.
    const listed = await admin.as<{ assistants: { id: string }[] }>(intruder, '');
    expect(listed.body.assistants.map((a) => a.id)).toEqual([mine.id]);
  });

  it('refuses unknown query parameters and malformed ids', async () => {
    expect(codeOf((await admin.api(`/${victimId}/usage?days=7&all=1`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/usage?days=0`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/audit?kind=any`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/audit?since=yesterday`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/audit?limit=201`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/audit?actor=x`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/conversations?limit=101`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api(`/${victimId}/conversations?cursor=bm9wZQ`)).body)).toBe('invalid_input');
    expect(codeOf((await admin.api('/Test%20assistant')).body)).toBe('not_found');
    expect(codeOf((await admin.api(`/${victimId}/conversations/not-an-id`)).body)).toBe('not_found');
  });
});
