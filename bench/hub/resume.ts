// Resumability of waiting turns: a random sample is answered, half in the running hub process and
// half after that process is stopped and a new one started on the same store. Each answered turn
// must finish; every other turn must still be waiting — nothing about a waiting turn lived only
// in the memory of the process that started it.
import { performance } from 'node:perf_hooks';
import type { Child } from './children.js';
import { HubClient } from './hub-client.js';
import {
  answerAll,
  type Counts,
  checkFinished,
  type HubInfo,
  startHub,
  type Visit,
  waitFor,
} from './visitors.js';

export interface Resumed {
  live: number;
  afterRestart: number;
  /** Turns done at the end, minus those done before the sample (the warm-up). */
  finished: number;
  failed: number;
  /** Turns still waiting right after the restart, before any answer reached the new process. */
  waitingAfterRestart: number;
  /** Turns not in the sample, left waiting at the end. */
  stillWaiting: number;
  seconds: number;
}

/** `count` distinct visits picked uniformly at random (Fisher–Yates). */
function pick(visits: Visit[], count: number): Visit[] {
  const copy = [...visits];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy.slice(0, count);
}

/** Answers the sample across a restart; returns the new hub process (the caller stops it). */
export async function resumeSample(
  hub: Child<HubInfo>,
  dir: string,
  visits: Visit[],
  sample: number,
): Promise<{ hub: Child<HubInfo>; resumed: Resumed }> {
  const started = performance.now();
  const before = await hub.ask<Counts>({ type: 'counts' });
  const waiting = before.turns.waiting ?? 0;
  const chosen = pick(visits, Math.min(sample, visits.length));
  const live = chosen.slice(0, Math.floor(chosen.length / 2));
  const later = chosen.slice(live.length);

  await answerAll(live);
  await waitFor(hub, (counts) => (counts.turns.waiting ?? 0) === waiting - live.length, 'live resume');
  await checkFinished(live);

  await hub.stop();
  const next = await startHub(dir);
  const restarted = await next.ask<Counts>({ type: 'counts' });
  // The same visitors (their session tokens are in the store) reach the new process.
  const moved = later.map(({ client, conversation }) => {
    const again = new HubClient(next.info.url);
    again.token = client.token;
    return { client: again, conversation };
  });
  await answerAll(moved);
  const end = await waitFor(
    next,
    (counts) => (counts.turns.waiting ?? 0) === waiting - chosen.length,
    'resume',
  );
  await checkFinished(moved);

  return {
    hub: next,
    resumed: {
      live: live.length,
      afterRestart: later.length,
      finished: (end.turns.done ?? 0) - (before.turns.done ?? 0),
      failed: (end.turns.failed ?? 0) - (before.turns.failed ?? 0),
      waitingAfterRestart: restarted.turns.waiting ?? 0,
      stillWaiting: end.turns.waiting ?? 0,
      seconds: (performance.now() - started) / 1000,
    },
  };
}
