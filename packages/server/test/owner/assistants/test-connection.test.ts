import type { AssistantView, TestConnectionResult } from '@diosc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '../../hub/support/hub-server.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

const KEY = 'sk-proj-AbCdEfGh1234567890stored-WXYZ';
const DRAFT_KEY = 'sk-proj-draft-key-QRSTUV0987654321';

/** What OpenAI answers for a wrong key: it echoes the key's edges — and here, to be sure, all of it. */
function providerError(key: string) {
  return JSON.stringify({
    error: {
      message: `Incorrect API key provided: ${key.slice(0, 8)}...${key.slice(-4)}. Full: ${key} <b>bold</b>\u0007 ${'x'.repeat(900)}`,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
  });
}

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_764_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

describeOnDialects('assistant admin: test connection', () => {
  let admin: AdminHarness;
  let failing: FakeUpstream;
  let working: FakeUpstream;
  let id: string;
  beforeAll(async () => {
    admin = await startAdmin({ hub: { fetchPrivate: true } });
    failing = await startFakeUpstream(() => ({ status: 401, body: providerError(KEY) }));
    working = await startFakeUpstream(() => ({ status: 200, body: COMPLETION }));
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: {
        name: 'Real provider',
        model: { provider: 'openai', id: 'gpt-4o-mini', baseUrl: `${failing.url}/v1` },
        providerKey: KEY,
      },
    });
    id = created.body.assistant.id;
  });
  afterAll(async () => {
    for (const body of admin.seen) {
      for (const secret of [KEY, DRAFT_KEY, KEY.slice(0, 8), KEY.slice(-8), DRAFT_KEY.slice(-8)])
        expect(body).not.toContain(secret);
    }
    await Promise.all([admin.server.close(), failing.close(), working.close()]);
  });

  it('answers ok for a scripted model without calling it, and model_not_configured for one not registered', async () => {
    const ok = await admin.api<TestConnectionResult>(`/${admin.server.assistant.id}/test-connection`, {
      body: {},
    });
    expect(ok.body).toEqual({ ok: true, label: 'scripted model test (not an AI)', scripted: true });
    expect(admin.server.model.calls).toHaveLength(0);
    const missing = await admin.api<TestConnectionResult>('/test-connection', {
      body: { model: { provider: 'scripted', id: 'nope' } },
    });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      ok: false,
      error: {
        code: 'model_not_configured',
        message: 'No scripted model named "nope" is registered; this server has "scripted-demo", "test".',
      },
    });
  });

  it("shows the real provider's error safely: plain, capped, with the stored key redacted", async () => {
    const answer = await admin.api<TestConnectionResult>(`/${id}/test-connection`, { body: {} });
    expect(answer.status).toBe(200);
    if (answer.body.ok) throw new Error('expected a failure');
    const { code, message } = answer.body.error;
    expect(code).toBe('model_failed');
    expect(message).toMatch(/^Incorrect API key provided: \[redacted\]/);
    expect(message).toContain('(HTTP 401)');
    expect(message).not.toMatch(/[<>]/);
    expect(message).not.toContain(String.fromCharCode(7));
    expect(message.length).toBeLessThanOrEqual(520);
    // The call reached the upstream with the stored key: it is the key the test made.
    expect(failing.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('tests a draft model with a just-entered key, which is never stored', async () => {
    const before = await admin.snapshot();
    const answer = await admin.api<TestConnectionResult>('/test-connection', {
      body: {
        model: { provider: 'openai', id: 'gpt-4o-mini', baseUrl: `${working.url}/v1` },
        providerKey: DRAFT_KEY,
      },
    });
    expect(answer.body).toEqual({
      ok: true,
      label: expect.stringMatching(/^OpenAI gpt-4o-mini via 127\.0\.0\.1:/),
      scripted: false,
    });
    expect(working.requests.at(-1)?.headers.authorization).toBe(`Bearer ${DRAFT_KEY}`);
    expect(await admin.snapshot()).toBe(before);
  });

  it('never sends the stored key to another endpoint than the stored one', async () => {
    const seen = working.requests.length;
    const answer = await admin.api<TestConnectionResult>(`/${id}/test-connection`, {
      body: { model: { provider: 'openai', id: 'gpt-4o-mini', baseUrl: `${working.url}/v1` } },
    });
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'model_not_configured' } });
    expect(working.requests.length).toBe(seen);
  });

  it('refuses bad bodies with invalid_input', async () => {
    for (const body of [
      { model: { provider: 'openai' } },
      { model: { provider: 'openai', id: 'x', region: 'eu' } },
      { providerKey: 5 },
      { extra: true },
    ]) {
      expect(codeOf((await admin.api(`/${id}/test-connection`, { body })).body), JSON.stringify(body)).toBe(
        'invalid_input',
      );
    }
    expect(codeOf((await admin.api('/test-connection', { body: {} })).body)).toBe('invalid_input');
  });
});

describeOnDialects('assistant admin: the network checks are rate-limited per account', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await startAdmin({ hub: { fetchPrivate: true } });
  });
  afterAll(() => admin.server.close());

  it('answers rate_limited after 20 checks a minute, with retryAfterMs', async () => {
    const check = () =>
      admin.api('/test-connection', { body: { model: { provider: 'scripted', id: 'test' } } });
    for (let index = 0; index < 20; index++) expect((await check()).status).toBe(200);
    const limited = await check();
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      error: { code: 'rate_limited', retryable: true, retryAfterMs: expect.any(Number) },
    });
    // The budget is shared by the routes that reach the network.
    const mcp = await admin.api(`/${admin.server.assistant.id}/mcp-check`, {
      body: { url: 'https://mcp.example/mcp' },
    });
    expect(codeOf(mcp.body)).toBe('rate_limited');
    // A local check is not counted.
    const local = await admin.api(`/${admin.server.assistant.id}/sitemap/test`, { body: { path: '/' } });
    expect(local.status).toBe(200);
  });
});
