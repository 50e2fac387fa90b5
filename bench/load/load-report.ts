// The load run's report: per operation kind, throughput, latency and errors; then the reconciliation.
import { percentiles } from '../hub/stats.js';
import { KINDS, type MixResult } from './mix.js';
import type { Reconciliation } from './reconcile.js';

export interface KindRow {
  kind: string;
  ok: number;
  errors: Record<string, number>;
  perSecond: number;
  p50: number | null;
  p99: number | null;
}

export interface LoadReport {
  benchmark: string;
  at: string;
  seconds: number;
  workers: number;
  store: string;
  machine: { cpus: number; cpu: string; node: string; loadavg: { before: number[]; after: number[] } };
  kinds: KindRow[];
  total: { ok: number; errors: number; perSecond: number };
  reconciliation: Reconciliation;
}

export function kindRows(mix: MixResult): KindRow[] {
  return KINDS.map((kind) => {
    const mine = mix.outcomes.filter((outcome) => outcome.kind === kind);
    const ok = mine.filter((outcome) => outcome.result === 'ok');
    const errors: Record<string, number> = {};
    for (const outcome of mine)
      if (outcome.result !== 'ok') errors[outcome.result] = (errors[outcome.result] ?? 0) + 1;
    const times = ok.length ? percentiles(ok.map((outcome) => outcome.ms)) : undefined;
    return {
      kind,
      ok: ok.length,
      errors,
      perSecond: ok.length / mix.seconds,
      p50: times?.p50 ?? null,
      p99: times?.p99 ?? null,
    };
  });
}

const ms = (value: number | null) => (value === null ? '—' : value.toFixed(1));

export function renderLoad(report: LoadReport): string {
  const errors = (row: KindRow) =>
    Object.entries(row.errors)
      .map(([code, n]) => `${n} ${code}`)
      .join(', ') || '0';
  const { reconciliation: r } = report;
  return [
    '# Load: a mixed run on loopback, then reconciliation',
    '',
    `${report.at} · ${report.seconds.toFixed(1)} s · ${report.workers} workers · ${report.store} · ${report.machine.cpus} × ${report.machine.cpu}, Node ${report.machine.node} · load average ${report.machine.loadavg.before[0]!.toFixed(2)} → ${report.machine.loadavg.after[0]!.toFixed(2)} (the machine is shared)`,
    '',
    'Each worker is one visitor (its own session, conversation and open event stream) with its own',
    'official MCP SDK client and the owner’s signed-in session, cycling through the kinds below until',
    'the time is up; each operation waits for its own outcome (a turn for its `turn.done`). The',
    'scripted model answers instantly, so the times are the hub’s, the store’s and HTTP’s. Account',
    'call-rate and admission limits are lifted (the run measures the work, not the quotas).',
    ...(report.store.includes('two instances')
      ? [
          '',
          'Here the store is one PostgreSQL database under two server processes. A worker streams,',
          'chats, uploads and calls `/mcp` on its instance and answers interrupts and approvals on the',
          'other, so every round trip and decision resumes its turn on the other instance; those',
          'events reach the worker’s stream through PostgreSQL `LISTEN/NOTIFY` (a hint that the',
          'conversation’s log grew; the stream then reads the log, the source of truth).',
        ]
      : []),
    '',
    '| operation | ok | per second | p50 ms | p99 ms | errors |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...report.kinds.map(
      (row) =>
        `| ${row.kind} | ${row.ok} | ${row.perSecond.toFixed(1)} | ${ms(row.p50)} | ${ms(row.p99)} | ${errors(row)} |`,
    ),
    `| **all** | ${report.total.ok} | ${report.total.perSecond.toFixed(1)} | | | ${report.total.errors} |`,
    '',
    '- _chat turn_: a message and the scripted reply, until `turn.done`.',
    '- _browser round trip_: a turn that asks the page for `read_page`; the client answers the interrupt; until `turn.done`.',
    '- _consensus decision_: a turn whose `item_write` waits for approval; the client approves the exact digest; the write runs; until `turn.done`.',
    '- _upload_: a PNG as multipart, until its descriptor (each visitor stays under 30 a minute).',
    '- _mcp item_write / items_list_: `tools/call` through the official SDK client over Streamable HTTP.',
    '- _owner item_write_: `POST /api/owner/operations/item_write` with the session cookie and CSRF token.',
    '',
    '## Reconciliation',
    '',
    `Checked against the store after the run: ${r.checked.writes} acknowledged writes (a committed receipt and the item each), ` +
      `${r.checked.interrupts} accepted interrupt answers (each accepted once, the call done with its answer, resolved once in the log), ` +
      `${r.checked.turns} finished turns (done, one \`turn.started\` and one \`turn.done\` each), ` +
      `${r.checked.events} streamed events (every stream got exactly its conversation’s log, ids 1..n), ` +
      `${r.checked.files} uploads (complete, every byte in the chunks).`,
    '',
    r.problems.length === 0
      ? '**No discrepancy.**'
      : ['**Discrepancies:**', '', ...r.problems.map((p) => `- ${p}`)].join('\n'),
    '',
  ].join('\n');
}
