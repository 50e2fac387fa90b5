// `npm run bench` (waiting part): 10,000 turns waiting on browser interrupts across two hub
// instances (two server processes) on one PostgreSQL database, then every one of them answered:
// the first half crosswise while both run (a turn started on A is answered on B and the other way
// round), the second half on B alone after A has been stopped. Then the store must show every turn
// done with the scripted reply, each interrupt answered and resolved exactly once — none lost.
// BENCH_POSTGRES_URL (or DIOSC_TEST_POSTGRES_URL) names the server; BENCH_WAITING_TURNS (or
// `--turns N`) the count; BENCH_WAITING_ANSWER (`--answer N`) answers a sample instead of all, and
// the rest must then still be waiting on their one interrupt. Writes test-results/bench/waiting.{json,md}; exits 1 if any turn is lost.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openStore } from '@diosc/server';
import { createPostgresDatabase } from '@diosc/server/testing';
import { sql } from 'kysely';
import { type Child, root, startChild } from '../hub/children.js';
import { REGISTRY, REPLY, userText } from '../hub/fixtures.js';
import { HubClient } from '../hub/hub-client.js';
import { pool } from '../hub/pool.js';
import { answerAll, CONCURRENCY, type Counts, type HubInfo, type Visit, waitFor } from '../hub/visitors.js';
import { renderWaiting, type WaitingReport } from './waiting-report.js';

const { values } = parseArgs({ options: { turns: { type: 'string' }, answer: { type: 'string' } } });
const TURNS = Number(values.turns ?? process.env.BENCH_WAITING_TURNS ?? 10_000);
/** How many are answered (all by default); the rest must still be waiting, each on one interrupt. */
const ANSWER = Math.min(TURNS, Number(values.answer ?? process.env.BENCH_WAITING_ANSWER ?? TURNS));
/** Messages per visitor session stay under the assistant's per-minute cap (1,000). */
const PER_SESSION = 500;
const adminUrl = process.env.BENCH_POSTGRES_URL ?? process.env.DIOSC_TEST_POSTGRES_URL;
if (!adminUrl) {
  console.error('waiting: no PostgreSQL (set BENCH_POSTGRES_URL); `npm run bench` starts one.');
  process.exit(1);
}

const startedAt = new Date();
const loadBefore = loadavg();
const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-waiting-'));
const database = await createPostgresDatabase(adminUrl, `diosc_waiting_${process.pid}`);
const env = { WAITING_DIR: dir, WAITING_DATABASE_URL: database.url };
const counts = (child: Child<HubInfo>) => child.ask<Counts & { rss: number }>({ type: 'counts' });
const seconds = (from: number) => (performance.now() - from) / 1000;

// A first (it creates the owner, the assistant and the secret key), then B on the same store.
const a = await startChild<HubInfo>('bench/load/waiting-server.ts', env);
const b = await startChild<HubInfo>('bench/load/waiting-server.ts', env);
const store = await openStore({ databaseUrl: database.url, sqlitePath: join(dir, 'unused.sqlite') });
try {
  const instances = [a, b];
  const clientOn = (instance: number, token: string) => {
    const client = new HubClient(instances[instance]!.info.url);
    client.token = token;
    return client;
  };

  // Sessions on A; conversations and messages alternate between A and B.
  let started = performance.now();
  const tokens: string[] = [];
  for (let index = 0; index < Math.ceil(TURNS / PER_SESSION); index++) {
    const client = new HubClient(a.info.url);
    await client.open(a.info.publishableKey);
    tokens.push(client.token);
  }
  const visits: (Visit & { startedOn: number })[] = new Array(TURNS);
  await pool(
    Array.from({ length: TURNS }, (_, index) => index),
    CONCURRENCY,
    async (index) => {
      const startedOn = index % 2;
      const client = clientOn(startedOn, tokens[index % tokens.length]!);
      const conversation = await client.conversation();
      await client.send(conversation, { text: userText(index), registry: REGISTRY });
      visits[index] = { client, conversation, startedOn };
    },
  );
  await waitFor(a, (c) => (c.turns.waiting ?? 0) === TURNS, 'waiting turns');
  await waitFor(b, (c) => (c.turns.waiting ?? 0) === TURNS, 'waiting turns (B)');
  const setupSeconds = seconds(started);
  const [rssA, rssB] = [(await counts(a)).rss, (await counts(b)).rss];
  console.log(`waiting · ${TURNS} turns waiting across two instances after ${setupSeconds.toFixed(1)} s`);

  // Half answered crosswise while both instances run.
  const half = Math.floor(ANSWER / 2);
  started = performance.now();
  await answerAll(
    visits.slice(0, half).map(({ client, conversation, startedOn }) => ({
      client: clientOn(1 - startedOn, client.token),
      conversation,
    })),
  );
  await waitFor(a, (c) => (c.turns.done ?? 0) === half, 'crosswise answers');
  await waitFor(b, (c) => (c.turns.done ?? 0) === half, 'crosswise answers (B)');
  const crosswiseSeconds = seconds(started);
  console.log(`waiting · ${half} answered crosswise in ${crosswiseSeconds.toFixed(1)} s`);

  // A stops; B answers the rest, half of which A had started.
  await a.stop();
  const left = await counts(b);
  started = performance.now();
  await answerAll(
    visits
      .slice(half, ANSWER)
      .map(({ client, conversation }) => ({ client: clientOn(1, client.token), conversation })),
  );
  await waitFor(b, (c) => (c.turns.done ?? 0) === ANSWER, 'answers on B alone');
  const aloneSeconds = seconds(started);
  console.log(`waiting · ${ANSWER - half} answered on B alone in ${aloneSeconds.toFixed(1)} s`);
  await b.stop();

  // What the store holds: every turn done with the reply, every interrupt answered and resolved once.
  const turns = Object.fromEntries(
    (
      await store.db
        .selectFrom('hub_turns')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute()
    ).map((row) => [row.status, Number(row.n)]),
  );
  const calls = await store.db
    .selectFrom('hub_tool_calls')
    .select([
      (eb) => eb.fn.countAll<number>().as('all'),
      sql<number>`sum(case when status = 'done' and answer_digest is not null then 1 else 0 end)`.as(
        'answered',
      ),
    ])
    .where('kind', '=', 'browser')
    .executeTakeFirstOrThrow();
  const resolvedTwice = await sql<{ n: number }>`
    select count(*) as n from (
      select data_json from hub_events where type = 'interrupt.resolved'
      group by data_json having count(*) > 1
    ) as repeated`.execute(store.db);
  // Turns still waiting, each on exactly one pending interrupt: what a later answer resumes.
  const pending = await sql<{ n: number }>`
    select count(*) as n from (
      select t.id from hub_turns t join hub_tool_calls c on c.turn_id = t.id and c.status = 'interrupt'
      where t.status = 'waiting' group by t.id having count(*) = 1
    ) as resumable`.execute(store.db);
  const replied = await store.db
    .selectFrom('hub_messages')
    .select((eb) => eb.fn.count<number>('conversation_id').distinct().as('n'))
    .where('role', '=', 'assistant')
    .where('content_json', 'like', `%${REPLY}%`)
    .executeTakeFirstOrThrow();

  const report: WaitingReport = {
    benchmark: 'waiting: turns waiting on interrupts across two instances on PostgreSQL, all answered',
    at: startedAt.toISOString(),
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    machine: {
      cpus: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadavg: { before: loadBefore, after: loadavg() },
    },
    postgres:
      (await sql<{ server_version: string }>`show server_version`.execute(store.db)).rows[0]
        ?.server_version ?? 'unknown',
    postgresSettings: await settingsOf(),
    turns: TURNS,
    answered: ANSWER,
    setup: { seconds: setupSeconds, rssA, rssB },
    crosswise: { answered: half, seconds: crosswiseSeconds },
    alone: { answered: ANSWER - half, waitingWhenAStopped: left.turns.waiting ?? 0, seconds: aloneSeconds },
    store: {
      turns,
      browserCalls: Number(calls.all),
      answered: Number(calls.answered),
      resolvedMoreThanOnce: Number(resolvedTwice.rows[0]?.n ?? 0),
      resumable: Number(pending.rows[0]?.n ?? 0),
      conversationsWithReply: Number(replied.n),
    },
  };
  const out = join(root, 'test-results/bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'waiting.json'), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderWaiting(report);
  writeFileSync(join(out, 'waiting.md'), markdown);
  console.log(`\n${markdown}\nWritten to test-results/bench/waiting.{json,md}`);
  if (lost(report)) process.exitCode = 1;
} finally {
  await Promise.all([a.stop(), b.stop()]);
  await store.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}

async function settingsOf(): Promise<string> {
  const show = async (name: string) =>
    (await sql<Record<string, string>>`${sql.raw(`show ${name}`)}`.execute(store.db)).rows[0]?.[name] ?? '?';
  return `fsync ${await show('fsync')}, synchronous_commit ${await show('synchronous_commit')}`;
}

export function lost(report: WaitingReport): boolean {
  const { store: s, turns, answered } = report;
  return (
    s.turns.done !== answered ||
    (s.turns.waiting ?? 0) !== turns - answered ||
    s.resumable !== turns - answered ||
    Object.keys(s.turns).some((status) => status !== 'done' && status !== 'waiting') ||
    s.browserCalls !== turns ||
    s.answered !== answered ||
    s.resolvedMoreThanOnce !== 0 ||
    s.conversationsWithReply !== answered
  );
}
