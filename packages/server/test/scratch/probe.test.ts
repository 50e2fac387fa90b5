import { SignJWT } from 'jose';
import { it } from 'vitest';
import { startHubServer } from '../hub/support/hub-server.js';

it('probe', async () => {
  const server = await startHubServer({ assistant: { secrets: { identitySecret: 'an-identity-secret-of-at-least-32-characters' } } });
  const { client, conversation } = await server.visit();
  const out: unknown[] = [];
  for (const path of ['/api/hub/sessions', '/api/hub/conversations', '/api/owner/assistants', '/mcp', '/kit/diosc.js', '/healthz', '/', '/nope']) {
    for (const headers of [{}, { origin: server.pageOrigin }, { origin: server.pageOrigin, 'access-control-request-method': 'POST' }] as Record<string,string>[]) {
      const r = await fetch(server.url + path, { method: 'OPTIONS', headers });
      out.push([path, JSON.stringify(headers).slice(0, 60), r.status, r.headers.get('content-type'), (await r.text()).slice(0, 120)]);
    }
  }
  const a = await client.request('GET', '/assistant');
  out.push(['assistant', a.status, a.body]);
  const raw = (path: string, body: string) => fetch(server.url + '/api/hub' + path, { method: 'POST', headers: { origin: server.pageOrigin, authorization: `Bearer ${client.token}`, 'content-type': 'application/json' }, body }).then(async (r) => [path, body, r.status, await r.text()]);
  out.push(await raw('/conversations', 'null'));
  out.push(await raw('/conversations', '{"a":1,"a":2}'));
  out.push(await raw(`/conversations/${conversation}/messages`, '{"text":"a","text":"b"}'));
  out.push(await raw(`/turns/x/cancel`, 'null'));
  const sign = (sub: unknown) => new SignJWT({ sub } as never).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode('an-identity-secret-of-at-least-32-characters'));
  for (const sub of [42, '42', '', 'a\u0001']) {
    const r = await server.client().request('POST', '/sessions', { publishableKey: server.assistant.publishableKey, identity: await sign(sub) });
    out.push(['sub', sub, r.status, JSON.stringify(r.body).slice(0, 100)]);
  }
  const noexp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').sign(new TextEncoder().encode('an-identity-secret-of-at-least-32-characters'));
  const r = await server.client().request('POST', '/sessions', { publishableKey: server.assistant.publishableKey, identity: noexp });
  out.push(['noexp', r.status, r.body]);
  const m = await client.send(conversation, { text: 'x'.repeat(70000) });
  out.push(['long', m.status, m.body]);
  console.log(JSON.stringify(out, null, 1));
  await server.close();
});
