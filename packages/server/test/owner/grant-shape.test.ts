import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserClient } from '../browser-access/browser-client.js';
import { snapshot } from '../http/snapshot.js';
import { callJson, type OwnerSession, signIn } from './owner-client.js';

/** Entries whose extra or repeated parts used to be dropped or merged, and stored narrower. */
const MALFORMED = [
  [{ collection: 'notes', functions: ['items_list'], all: true }],
  [{ collection: 'notes', functions: ['items_list'], collections: ['inbox', 'drive'] }],
  [{ collection: 'notes', functions: ['items_list'], grant: { functions: ['item_delete'] } }],
  [{ collection: 'notes', functions: ['items_list', 'items_list'] }],
  [
    { collection: 'inbox', functions: ['items_list'] },
    { collection: 'notes', functions: ['item_read', 'item_write', 'item_read'] },
  ],
];

describe.each(DIALECTS)(
  'grant and selection entries: unknown fields and repeated functions are refused ($name)',
  (dialect) => {
    let server: TestServer;
    let owner: OwnerSession;
    let connectionId: string;

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      owner = await signIn(server.url);
      const created = await callJson<{ connection: { id: string } }>(server.url, '/connections', owner, {
        body: { displayName: 'App', grant: [{ collection: 'notes', functions: ['items_list'] }] },
      });
      connectionId = created.body.connection.id;
    });
    afterAll(() => server.close());

    it('on a new connection, a grant change, a browser selection and a permissions list alike', async () => {
      const browser = browserClient(server.url, owner);
      expect((await browser.enable([{ collection: 'notes', functions: ['items_list'] }])).status).toBe(200);
      const before = await snapshot(server.store);
      for (const grant of MALFORMED) {
        const answers = [
          await callJson(server.url, '/connections', owner, { body: { displayName: 'x', grant } }),
          await callJson(server.url, `/connections/${connectionId}/grant`, owner, {
            method: 'PUT',
            body: { grant },
          }),
          await browser.enable(grant),
          await browser.dispatch('items_list', { collection: 'notes' }, { permissions: grant }),
        ];
        for (const answer of answers) {
          expect(answer.status, JSON.stringify(grant)).toBe(400);
          expect(answer.body, JSON.stringify(grant)).toMatchObject({ error: { code: 'invalid_input' } });
        }
      }
      // Nothing was created, changed, narrowed or recorded.
      const after = await snapshot(server.store);
      expect({ ...after, sessions: [] }).toEqual({ ...before, sessions: [] });
    });

    it('still accepts the same grants written correctly', async () => {
      const answer = await callJson<{ connection: { grant: unknown } }>(server.url, '/connections', owner, {
        body: { displayName: 'y', grant: [{ collection: 'notes', functions: ['item_read', 'items_list'] }] },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.connection.grant).toEqual([
        { collection: 'notes', functions: ['items_list', 'item_read'] },
      ]);
    });
  },
);
