import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routesOf } from '../../http/routes.js';
import { describeOnDialects, type HubTestServer, PAGE_ORIGIN } from '../support/hub-server.js';
import { codeOf, type FuzzClient, refusalProblem, type Shot } from './fuzz-client.js';
import { startFuzzHub, storeDigest, type Targets } from './fuzz-fixture.js';
import { hubFuzzers, type Input, type RouteFuzzer } from './hub-routes.js';

/**
 * fast-check over every route of the hub (read from Fastify's route tree, so a route added later
 * fails here until it has a fuzzer), over real HTTP on loopback with a keep-alive client. Each
 * route gets at least RUNS hostile inputs, split over its classes; every answer is a refusal of
 * the error table at its own status with a message (reads may also answer 2xx), never a 5xx, and
 * after each class every row of every table is what it was. PostgreSQL gets fewer runs: the same
 * generators, a tenth of the time budget.
 */
const RUNS_BY_DIALECT: Record<string, number> = { sqlite: 1_000, postgres: 150 };

describeOnDialects('fuzzing every hub endpoint', (dialect) => {
  const runs = RUNS_BY_DIALECT[dialect.name] ?? 150;
  let server: HubTestServer;
  let http: FuzzClient;
  let targets: Targets;
  let fuzzers: Record<string, RouteFuzzer>;
  const tally: Record<string, Record<string, Record<string, number>>> = {};

  beforeAll(async () => {
    ({ server, http, targets } = await startFuzzHub({ dialect }));
    fuzzers = hubFuzzers(targets);
  }, 120_000);
  afterAll(async () => {
    await http?.close();
    await server?.close();
    const dir = join(import.meta.dirname, '../../../../../test-results/fuzz');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `hub-${dialect.name}.json`), `${JSON.stringify({ runs, tally }, null, 2)}\n`);
  });

  it('has a fuzzer for every hub route, and no fuzzer for a route that is gone', () => {
    const routes = routesOf(server.app, ':id')
      .filter((route) => route.path.startsWith('/api/hub/'))
      .map((route) => `${route.method} ${route.path}`);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(fuzzers).sort()).toEqual([...new Set(routes)].sort());
  });

  it('notices a stored row (the digest is a real check)', async () => {
    const before = await storeDigest(server);
    const created = await http.send({
      method: 'POST',
      path: '/api/hub/conversations',
      headers: { origin: PAGE_ORIGIN, authorization: `Bearer ${targets.main.token}` },
    });
    expect(created.status).toBe(201);
    expect(await storeDigest(server)).not.toBe(before);
  });

  const routeNames = [
    'POST /api/hub/sessions',
    'POST /api/hub/conversations',
    'GET /api/hub/assistant',
    'HEAD /api/hub/assistant',
    'GET /api/hub/conversations',
    'HEAD /api/hub/conversations',
    'GET /api/hub/conversations/:id',
    'HEAD /api/hub/conversations/:id',
    'POST /api/hub/conversations/:id/messages',
    'GET /api/hub/conversations/:id/events',
    'HEAD /api/hub/conversations/:id/events',
    'POST /api/hub/conversations/:id/files',
    'POST /api/hub/consensus/:id/decision',
    'POST /api/hub/interrupts/:id/answer',
    'POST /api/hub/turns/:id/cancel',
    'GET /api/hub/files/:id',
    'HEAD /api/hub/files/:id',
    'POST /api/hub/ag-ui',
  ];

  it.each(routeNames)(
    // The count differs per dialect (RUNS_BY_DIALECT); the title does not, so each test has its twin.
    '%s: hostile inputs (1,000+ on SQLite), no 5xx, stable codes, nothing stored',
    async (name) => {
      const fuzzer = fuzzers[name];
      expect(fuzzer, `no fuzzer for ${name}`).toBeDefined();
      const method = name.split(' ')[0]!;
      const classes = Object.entries(fuzzer!.classes);
      const perClass = Math.ceil(runs / classes.length);
      let sent = 0;
      let before = await storeDigest(server);
      for (const [label, arbitrary] of classes) {
        const codes: Record<string, number> = {};
        await fc.assert(
          fc.asyncProperty(arbitrary, async (input) => {
            const shot = shotOf(fuzzer!, method, input, targets, sent++);
            const answer = await http.send(shot);
            const problem =
              refusalProblem(answer, method) ??
              (fuzzer!.writes && answer.status < 400
                ? `accepted with ${answer.status}: ${answer.text.slice(0, 200)}`
                : null);
            const key =
              answer.status < 400 ? String(answer.status) : (codeOf(answer) ?? String(answer.status));
            codes[key] = (codes[key] ?? 0) + 1;
            if (problem) throw new Error(`${shot.method} ${shot.path.slice(0, 200)}: ${problem}`);
          }),
          { numRuns: perClass, endOnFailure: true },
        );
        tally[name] = { ...tally[name], [label]: codes };
        const after = await storeDigest(server);
        expect(after, `${name} · ${label} changed the store`).toBe(before);
        before = after;
      }
      expect(sent).toBeGreaterThanOrEqual(runs);
    },
    180_000,
  );
});

/** The request one input makes: the route's defaults (visitor, path, JSON type) under the input's overrides. */
function shotOf(fuzzer: RouteFuzzer, method: string, input: Input, t: Targets, index: number): Shot {
  const turn = fuzzer.rotateEvery ? Math.floor(index / fuzzer.rotateEvery) : 0;
  const visitor = fuzzer.actor === 'crowd' ? t.crowd[turn % t.crowd.length]! : t.main;
  const path = `/api/hub${(input.path ?? fuzzer.path).replaceAll('{own}', visitor.conversation)}`;
  const headers: Record<string, string | undefined> = {
    origin: PAGE_ORIGIN,
    ...(fuzzer.path === '/sessions' ? {} : { authorization: `Bearer ${visitor.token}` }),
    ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...input.headers,
  };
  return {
    method,
    path,
    headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(fuzzer.rotateAddress ? { from: `127.0.2.${1 + (turn % 250)}` } : {}),
  };
}
