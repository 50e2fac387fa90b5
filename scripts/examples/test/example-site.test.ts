import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAssistantInput } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAssistantInput, hasRealModel } from '../example-assistant.js';
import { buildExampleSite } from '../example-site.js';
import { EXAMPLES } from '../examples.js';

const dist = mkdtempSync(join(tmpdir(), 'example-site-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(
  join(dist, 'index.html'),
  '<html><head><!-- diosc-config: here --><script type="module" src="/assets/app-1a2b.js"></script></head></html>',
);
writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

let site: FastifyInstance;
beforeAll(async () => {
  site = await buildExampleSite({
    dist,
    hubUrl: 'http://127.0.0.1:3101',
    publishableKey: 'pk_"><script>alert(1)</script>',
  });
});

describe('the example’s tiny server', () => {
  it('answers every page with the HTML, the hub’s URL and key in escaped <meta> tags, under a strict CSP', async () => {
    for (const url of ['/', '/products/assam?x=1', '/?doc=onboarding']) {
      const response = await site.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<meta name="diosc-hub-url" content="http://127.0.0.1:3101" />');
      expect(response.body).toContain(
        '<meta name="diosc-publishable-key" content="pk_&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" />',
      );
      expect(response.body).not.toContain('<script>alert(1)');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:3101;");
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });

  it('serves hashed assets for a year and answers a missing file with a 404, never the page', async () => {
    const asset = await site.inject({ url: '/assets/app-1a2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of ['/favicon.ico', '/assets/gone-0000.js'])
      expect((await site.inject({ url })).statusCode).toBe(404);
  });
});

describe('the example’s assistant from its assistant.yaml', () => {
  it.each(Object.values(EXAMPLES))(
    '$name: its origin, the scripted model without a key, the real one with a key',
    async (example) => {
      const file = join(example.dir, 'assistant.yaml');
      const options = { origin: 'http://localhost:4000', scriptedModelId: example.scriptedModelId };
      const scripted = await exampleAssistantInput(file, { ...options, env: {} });
      expect(scripted).toMatchObject({
        allowedOrigins: ['http://localhost:4000'],
        model: { provider: 'scripted', id: example.scriptedModelId },
      });
      expect(() => parseAssistantInput(scripted)).not.toThrow();
      const real = await exampleAssistantInput(file, { ...options, env: { OPENAI_API_KEY: 'sk-test' } });
      expect(real.model).toEqual({ provider: 'auto' });
    },
  );

  it('a key, or an Ollama URL, is what makes the model real; blank values do not count', () => {
    expect(hasRealModel({})).toBe(false);
    expect(hasRealModel({ OPENAI_API_KEY: '  ' })).toBe(false);
    expect(hasRealModel({ ANTHROPIC_API_KEY: 'x' })).toBe(true);
    expect(hasRealModel({ DIOSC_OLLAMA_URL: 'http://127.0.0.1:11434' })).toBe(true);
  });
});
