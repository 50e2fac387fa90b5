// The waiting run's report (waiting-run.ts).
export interface WaitingReport {
  benchmark: string;
  at: string;
  seconds: number;
  machine: { cpus: number; cpu: string; node: string; loadavg: { before: number[]; after: number[] } };
  postgres: string;
  /** Durability settings of the server measured on (`npm run bench` starts it like npm test does). */
  postgresSettings: string;
  turns: number;
  /** Answered in the run; the rest are left waiting and counted as resumable. */
  answered: number;
  setup: { seconds: number; rssA: number; rssB: number };
  crosswise: { answered: number; seconds: number };
  alone: { answered: number; waitingWhenAStopped: number; seconds: number };
  store: {
    turns: Record<string, number>;
    browserCalls: number;
    answered: number;
    resolvedMoreThanOnce: number;
    /** Turns still waiting, each on exactly one pending interrupt. */
    resumable: number;
    conversationsWithReply: number;
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rate = (n: number, seconds: number) => `${(n / seconds).toFixed(0)} turns/s`;

export function renderWaiting(r: WaitingReport): string {
  const s = r.store;
  const left = r.turns - r.answered;
  const none =
    s.turns.done === r.answered &&
    s.answered === r.answered &&
    s.resumable === left &&
    s.resolvedMoreThanOnce === 0 &&
    s.conversationsWithReply === r.answered;
  return [
    '# Waiting turns across two instances on PostgreSQL',
    '',
    `${r.at} · ${r.seconds.toFixed(0)} s in all · PostgreSQL ${r.postgres} · ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node} · load average ${r.machine.loadavg.before[0]!.toFixed(2)} → ${r.machine.loadavg.after[0]!.toFixed(2)} (the machine is shared)`,
    '',
    'Two server processes (A and B) on one PostgreSQL database. Conversations and their first',
    'message alternate between A and B; each turn asks the page for `read_page` and waits. Then',
    `${r.answered === r.turns ? 'every turn' : `a sample of ${r.answered}`} is answered the way a reloaded kit does (read the conversation, answer its pending`,
    'interrupt), 16 at a time: the first half on the instance that did _not_ start the turn, the',
    'second half on B alone after A was stopped (SIGTERM) — half of those turns A had started.',
    `PostgreSQL ${r.postgresSettings}; both instances and the clients share the machine's cores.`,
    '',
    '| phase | turns | seconds | rate |',
    '| --- | ---: | ---: | ---: |',
    `| start ${r.turns.toLocaleString('en')} turns, all waiting (A and B) | ${r.turns} | ${r.setup.seconds.toFixed(1)} | ${rate(r.turns, r.setup.seconds)} |`,
    `| answer crosswise, both running | ${r.crosswise.answered} | ${r.crosswise.seconds.toFixed(1)} | ${rate(r.crosswise.answered, r.crosswise.seconds)} |`,
    `| answer on B after A stopped (${r.alone.waitingWhenAStopped} were waiting) | ${r.alone.answered} | ${r.alone.seconds.toFixed(1)} | ${rate(r.alone.answered, r.alone.seconds)} |`,
    '',
    `Resident memory with all ${r.turns.toLocaleString('en')} turns waiting: A ${mb(r.setup.rssA)}, B ${mb(r.setup.rssB)} (a waiting turn's state is in the store, which is why the other instance can finish it).`,
    '',
    '## What the store holds afterwards',
    '',
    `- turns by status: ${Object.entries(s.turns)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ')}`,
    `- browser tool calls: ${s.browserCalls}, answered (done with the answer): ${s.answered}`,
    `- interrupts resolved more than once in the event log: ${s.resolvedMoreThanOnce}`,
    `- conversations whose last step is the scripted reply: ${s.conversationsWithReply}`,
    `- turns still waiting on exactly one pending interrupt (resumable by an answer): ${s.resumable}`,
    '',
    none
      ? `**None lost:** ${r.answered.toLocaleString('en')} turns resumed and finished${left ? `; the other ${left.toLocaleString('en')} are still waiting, each on its one interrupt` : ''}.`
      : '**Turns were lost** (see above).',
    '',
  ].join('\n');
}
