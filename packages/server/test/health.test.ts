import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.each(DIALECTS)('server skeleton ($name)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('answers /healthz over real HTTP', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok', store: dialect.name });
  });

  it('answers unknown routes and malformed JSON with a structured error, never HTML', async () => {
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    const malformed = await fetch(`${server.url}/healthz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    expect(malformed.status).toBe(400);
    const body = await malformed.text();
    expect(body).not.toMatch(/<html|<body/i);
    expect(JSON.parse(body)).toEqual({
      error: { code: 'invalid_input', message: 'The request body is not valid JSON.', retryable: false },
    });
  });
});
