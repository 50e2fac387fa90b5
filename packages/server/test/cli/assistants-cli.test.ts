import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS, startTestServer } from '@diosc/server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { applyAssistantsFile } from '../../src/hub/assistant-admin/assistants-file.js';
import { cliTestEnv, runDiosc } from './support/run-diosc.js';

const dir = mkdtempSync(join(tmpdir(), 'diosc-cli-assistants-'));

/** `diosc …` in this process (cli.test.ts spawns the real entry once). */
const diosc = (env: Record<string, string>, ...args: string[]) => runDiosc(args, cliTestEnv(dir, env));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('diosc assistants', () => {
  it('refuses a scripted model id the server does not have, and creates nothing', async () => {
    const refused = await diosc({}, 'assistants', 'create', '--name', 'Typo', '--model', 'scripted:demo');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'No scripted model named "demo" is registered; this server has "scripted-demo"',
    );
    const listed = await diosc({}, 'assistants', 'list');
    expect(listed.stdout).not.toContain('Typo');
  });

  it('creates, lists, shows, updates and deletes an assistant; a key is only ever "set"', async () => {
    const created = await diosc(
      {},
      'assistants',
      'create',
      '--name',
      'Shop',
      '--origin',
      'https://shop.example',
      '--model',
      'scripted',
      '--json',
    );
    expect(created.code).toBe(0);
    const shop = JSON.parse(created.stdout) as { id: string; publishableKey: string; secrets: unknown };
    expect(shop.publishableKey).toMatch(/^pk_/);
    expect(shop.secrets).toEqual({ providerKey: false, identitySecret: false, mcpTokens: [] });

    const listed = await diosc({}, 'assistants', 'list');
    expect(listed.stdout).toContain(
      `${shop.id}  Shop  ${shop.publishableKey}  scripted:scripted-demo  https://shop.example`,
    );

    const key = 'sk-test-0123456789abcdefghij';
    const updated = await diosc(
      { SHOP_KEY: key },
      'assistants',
      'update',
      'Shop',
      '--model',
      'openai:gpt-4o-mini',
      '--provider-key-env',
      'SHOP_KEY',
    );
    expect(updated.code).toBe(0);
    const shown = await diosc({}, 'assistants', 'show', 'Shop');
    expect(shown.stdout).toContain('"providerKey": true');
    expect(shown.stdout).toContain('"provider": "openai"');
    expect(shown.stdout + updated.stdout).not.toContain(key);

    const bad = await diosc({}, 'assistants', 'create', '--name', 'Bad', '--origin', 'javascript:alert(1)');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('assistant.allowedOrigins.0 must match pattern');
    const unknown = await diosc({}, 'assistants', 'update', 'Nobody', '--name', 'x');
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'diosc: There is no assistant "Nobody".']);

    expect((await diosc({}, 'assistants', 'delete', 'Shop')).code).toBe(0);
    expect((await diosc({}, 'assistants', 'list')).stdout).not.toContain('Shop');
  });
});

describe.each(DIALECTS)('DIOSC_ASSISTANTS ($name)', (dialect) => {
  it('creates and then updates assistants by name from a YAML file, and refuses secrets in it', async () => {
    const server = await startTestServer({ dialect });
    try {
      const file = join(server.dir, 'assistants.yaml');
      writeFileSync(
        file,
        [
          'assistants:',
          '  - name: Storefront',
          '    allowedOrigins: [https://shop.example]',
          '    sitemap:',
          '      - { path: /products/:id, title: A product }',
        ].join('\n'),
      );
      expect(await applyAssistantsFile(server.app.diosc, server.accountId, file)).toEqual({
        created: ['Storefront'],
        updated: [],
      });
      writeFileSync(file, ['assistants:', '  - name: Storefront', '    instructions: Be brief.'].join('\n'));
      expect(await applyAssistantsFile(server.app.diosc, server.accountId, file)).toEqual({
        created: [],
        updated: ['Storefront'],
      });
      const [record] = await server.app.diosc.hub!.services.assistants.list(server.accountId);
      expect(record?.config).toMatchObject({
        instructions: 'Be brief.',
        sitemap: [{ path: '/products/:id' }],
      });

      writeFileSync(
        file,
        ['assistants:', '  - name: Leaky', '    secrets: { providerKey: sk-abc }'].join('\n'),
      );
      await expect(applyAssistantsFile(server.app.diosc, server.accountId, file)).rejects.toThrow(
        /secrets do not belong/,
      );
      writeFileSync(
        file,
        ['assistants:', '  - name: Fine', '  - name: Typo', '    alowedOrigins: []'].join('\n'),
      );
      await expect(applyAssistantsFile(server.app.diosc, server.accountId, file)).rejects.toThrow(
        /alowedOrigins/,
      );
      expect(
        (await server.app.diosc.hub!.services.assistants.list(server.accountId)).map((a) => a.config.name),
      ).toEqual(['Storefront']);
    } finally {
      await server.close();
    }
  });
});
