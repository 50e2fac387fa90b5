import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { ensureOwner } from '../src/first-run.js';
import { ensureDemoAssistant } from '../src/hub/assistant-admin/demo-assistant.js';
import { startBanner } from '../src/start-banner.js';
import { openConfiguredStore } from '../src/store/configured-store.js';
import type { Store } from '../src/store/dialect.js';

describe("npm start's banner", () => {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-banner-'));
  let store: Store | undefined;
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the first run’s Demo assistant with its preview, which opens once signed in', async () => {
    // What main.ts does on a first run, on a port that is not the default.
    const config = loadConfig({
      DIOSC_DATA_DIR: dir,
      DIOSC_PORT: '4321',
      DIOSC_OWNER_PASSWORD: 'banner pass',
    });
    store = await openConfiguredStore(config);
    const owner = await ensureOwner(store, config, systemClock);
    app = await buildApp({ config, store, logger: false, hub: { env: {} } });
    await ensureDemoAssistant(app.diosc, owner.accountId);
    const lines = await startBanner({
      url: config.publicOrigin,
      storeLabel: 'test store',
      owner,
      hub: app.diosc.hub!.services,
    });
    const text = lines.join('\n');
    expect(text).toContain('Diosc is running at http://localhost:4321');
    expect(text).toMatch(/Assistant "Demo assistant": pk_\S+ on .*scripted/);
    const preview = /Try it \(once signed in\): (\S+)/.exec(text)?.[1];
    expect(preview).toMatch(/^http:\/\/localhost:4321\/api\/owner\/assistants\/ast_\w+\/preview$/);

    const path = new URL(preview!).pathname;
    const anonymous = await app.inject({ method: 'GET', url: path });
    expect(anonymous.statusCode).toBe(401);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/owner/session',
      headers: { origin: config.publicOrigin, 'content-type': 'application/json' },
      payload: { email: 'owner@localhost', password: 'banner pass' },
    });
    expect(signedIn.statusCode).toBe(200);
    const session = /diosc_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1];
    const page = await app.inject({
      method: 'GET',
      url: path,
      headers: { cookie: `diosc_session=${session}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Preview: Demo assistant</h1>');
  });
});
