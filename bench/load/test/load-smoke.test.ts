import { createScriptedModel } from '@diosc/server/scripted';
import { OWNER_PASSWORD, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamsCaughtUp } from '../catch-up.js';
import type { Ledger } from '../ledger.js';
import { loadScript, prepareLoadApp } from '../load-app.js';
import { KINDS, runMix } from '../mix.js';
import { reconcile } from '../reconcile.js';

/**
 * The load run of `npm run bench`, a few seconds long (SQLite): every operation kind succeeds
 * and the store agrees with everything the clients were told. Then the reconciliation is shown to
 * catch what it is for — a lost receipt, a lost event, an interrupt accepted twice.
 */
let server: TestServer;
let ledger: Ledger;
beforeAll(async () => {
  server = await startTestServer({
    realClock: true,
    limits: { callsPerMinutePerCaller: 1_000_000, maxConcurrentPerAccount: 1_000 },
    app: { hub: { scriptedModels: { load: createScriptedModel(loadScript) } } },
  });
}, 60_000);
afterAll(() => server?.close());

describe('the mixed load, briefly, and its reconciliation', () => {
  it('runs every operation kind without an error, and the store agrees with every acknowledgement', async () => {
    const target = await prepareLoadApp(
      server.app,
      server.accountId,
      { email: 'owner@localhost', password: OWNER_PASSWORD },
      server.url,
    );
    const run = await runMix(target, { seconds: 3, workers: 4 });
    await streamsCaughtUp(server.store.db, run.received);
    run.recordStreams();
    await run.close();
    ledger = run.ledger;

    const failed = run.outcomes.filter((outcome) => outcome.result !== 'ok');
    expect(failed).toEqual([]);
    expect(new Set(run.outcomes.map((outcome) => outcome.kind))).toEqual(new Set(KINDS));
    const result = await reconcile(server.store.db, ledger);
    expect(result.problems).toEqual([]);
    expect(result.checked.writes).toBeGreaterThan(0);
    expect(result.checked.interrupts).toBeGreaterThan(0);
    expect(result.checked.files).toBeGreaterThan(0);
    expect(ledger.writes.map((write) => write.via)).toEqual(
      expect.arrayContaining(['mcp', 'owner', 'consensus']),
    );
  }, 60_000);

  it('reports a lost receipt, a lost event and a twice-accepted interrupt', async () => {
    const write = ledger.writes.find((entry) => entry.via === 'consensus')!;
    await server.store.db
      .deleteFrom('receipts')
      .where('actor', '=', write.actor)
      .where('request_id', '=', write.requestId)
      .execute();
    const [conversation, ids] = Object.entries(ledger.streams).find(([, received]) => received.length > 0)!;
    await server.store.db
      .deleteFrom('hub_events')
      .where('conversation_id', '=', conversation)
      .where('id', '=', ids.at(-1)!)
      .execute();
    const twice = { ...ledger, answered: [...ledger.answered, ledger.answered[0]!] };

    const { problems } = await reconcile(server.store.db, twice);
    expect(problems).toEqual(
      expect.arrayContaining([
        `consensus write ${write.requestId}: receipt missing`,
        `conversation ${conversation}: the stream got ${ids.length} events, the log has ${ids.length - 1}`,
        `interrupt ${ledger.answered[0]} was accepted twice`,
      ]),
    );
  });
});
