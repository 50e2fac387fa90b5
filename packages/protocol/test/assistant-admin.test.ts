import { describe, expect, it } from 'vitest';
import { ASSISTANT_ADMIN_BODY_SCHEMAS } from '../src/index.js';
import { validateAssistantAdminBody } from '../src/validators.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return 'accepted';
}

/** Every object schema, at any depth, refuses properties it does not name. */
function objectsOf(schema: unknown, path = '$'): [string, Record<string, unknown>][] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: [string, Record<string, unknown>][] = [];
  const types = ([] as unknown[]).concat(node.type ?? []);
  if (types.includes('object') && node.properties) found.push([path, node]);
  for (const [key, value] of Object.entries(node)) found.push(...objectsOf(value, `${path}.${key}`));
  return found;
}

describe('assistant admin body schemas', () => {
  it('refuse unknown fields at every depth of every body', () => {
    for (const [name, schema] of Object.entries(ASSISTANT_ADMIN_BODY_SCHEMAS)) {
      const objects = objectsOf(schema);
      expect(objects.length, name).toBeGreaterThan(0);
      for (const [path, node] of objects) expect(node.additionalProperties, `${name} ${path}`).toBe(false);
    }
  });

  it('accept a full create body and refuse an extra field deep inside it', () => {
    const body = {
      name: 'Shop helper',
      model: { provider: 'openai', id: 'gpt-4o-mini' },
      allowedOrigins: ['https://shop.example'],
      browserTools: [{ name: 'highlight_row', description: 'Highlight', inputSchema: { type: 'object' } }],
      serverTools: {
        account: { grant: [{ collection: 'notes', functions: ['items_list'] }] },
        mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp', token: 'tok' }],
        generateFile: { enabled: true, formats: ['csv'], maxBytes: 1000 },
        consensus: { crm__delete: 'high' },
      },
      sitemap: [{ path: '/products/:id', title: 'Product' }],
      limits: { maxStepsPerTurn: 5 },
      providerKey: 'sk-test',
    };
    expect(refusal(() => validateAssistantAdminBody('assistantCreate', body))).toBe('accepted');
    const deep = structuredClone(body) as typeof body & Record<string, unknown>;
    (deep.serverTools.mcpServers[0] as Record<string, unknown>).headers = { x: 1 };
    expect(refusal(() => validateAssistantAdminBody('assistantCreate', deep))).toMatch(
      /^invalid_input: body\.serverTools\.mcpServers\.0 must NOT have additional properties \(headers\)/,
    );
    const account = structuredClone(body);
    (account.serverTools.account as Record<string, unknown>).connectionId = 'con_other';
    expect(refusal(() => validateAssistantAdminBody('assistantCreate', account))).toMatch(/connectionId/);
  });

  it('take null to clear a secret or remove the catalog, and nothing else of the wrong type', () => {
    expect(
      refusal(() =>
        validateAssistantAdminBody('assistantUpdate', {
          providerKey: null,
          identitySecret: null,
          serverTools: {
            account: null,
            mcpServers: [{ name: 'crm', url: 'https://crm.example', token: null }],
          },
        }),
      ),
    ).toBe('accepted');
    expect(refusal(() => validateAssistantAdminBody('assistantUpdate', { providerKey: 5 }))).toMatch(
      /^invalid_input: body\.providerKey must be string,null/,
    );
    expect(refusal(() => validateAssistantAdminBody('assistantUpdate', { providerKey: '' }))).toMatch(
      /^invalid_input: body\.providerKey/,
    );
    expect(refusal(() => validateAssistantAdminBody('assistantCreate', {}))).toMatch(/name/);
  });

  it('hold origins to exact origins', () => {
    for (const origin of ['https://shop.example/', 'https://shop.example/path', 'ftp://x.example', '*']) {
      expect(
        refusal(() => validateAssistantAdminBody('assistantUpdate', { allowedOrigins: [origin] })),
        origin,
      ).toMatch(/^invalid_input: body\.allowedOrigins\.0/);
    }
    expect(
      refusal(() =>
        validateAssistantAdminBody('assistantUpdate', { allowedOrigins: ['http://127.0.0.1:8080'] }),
      ),
    ).toBe('accepted');
  });
});
