import { randomUUID } from 'node:crypto';
import type { HubServices } from '../hub-services.js';
import { advanceTurn } from './advance-turn.js';
import { failTurn } from './end-turn.js';

/**
 * Runs turns one model step at a time. Everything a waiting turn needs is in the store, so the
 * runner can stop between any two steps — a restart, another instance — and `schedule(turnId)`
 * picks the turn up where the store says it is.
 */
export function createTurnRunner(hub: HubServices) {
  const instance = `run_${randomUUID()}`;
  const LEASE_MS = hub.turnLeaseMs;
  const active = new Map<string, { again: boolean; abort: AbortController; done: Promise<void> }>();
  /** Turns whose lease a resolved call handed this runner in the store: the next run needs no lease. */
  const handed = new Set<string>();
  let closing = false;

  function schedule(turnId: string, how?: { leased: boolean }): void {
    if (closing) return;
    if (how?.leased) handed.add(turnId);
    const running = active.get(turnId);
    if (running) {
      running.again = true;
      return;
    }
    const entry = { again: true, abort: new AbortController(), done: Promise.resolve() };
    active.set(turnId, entry);
    entry.done = (async () => {
      try {
        while (entry.again) {
          entry.again = false;
          await runOnce(turnId, entry.abort.signal, entry.abort);
        }
      } catch (error) {
        hub.log.error({ err: error, turnId }, 'turn runner failed');
      } finally {
        active.delete(turnId);
        hub.onIdle?.();
      }
    })();
  }

  async function runOnce(turnId: string, signal: AbortSignal, abort: AbortController): Promise<void> {
    if (!handed.delete(turnId) && !(await hub.turns.lease(turnId, instance, LEASE_MS))) return;
    // A long model step keeps its lease; one that lost it (this process stalled past the lease)
    // stops, since another instance may be running the turn now.
    const renew = setInterval(() => {
      hub.turns.renewLease(turnId, instance, LEASE_MS).then(
        (held) => held || abort.abort(),
        () => undefined,
      );
    }, LEASE_MS / 3);
    renew.unref();
    let rest: 'waiting' | 'ended' | undefined;
    try {
      rest = await advanceTurn(hub, turnId, { signal, leaseOwner: instance, leaseMs: LEASE_MS });
    } catch (error) {
      if (!signal.aborted || (await hub.turns.renewLease(turnId, instance, LEASE_MS)))
        await failTurn(hub, turnId, error);
    } finally {
      clearInterval(renew);
    }
    // A turn that went waiting or ended gave its lease up in that same statement; whoever resolves
    // what it waits on hands the lease on (tool-calls/resolve-call.ts), and nothing is left to check.
    if (rest) return;
    await hub.turns.releaseLease(turnId, instance);
    // Still `running` with nobody holding it: an answer that came in on another instance while this
    // one held the lease (its runner was refused). Tell the others; the lease decides who takes it.
    if (!closing && !signal.aborted && (await hub.turns.get(turnId))?.status === 'running') {
      hub.signals.send({ kind: 'runnable', turnId });
    }
  }

  return {
    instance,
    leaseMs: LEASE_MS,
    schedule,
    /**
     * Wakes a waiting turn whose step has nothing pending any more. A call resolved through the
     * door (tool-calls/resolve-call.ts) needs none of this; a store changed by other means does.
     */
    async resumeIfUnblocked(turnId: string): Promise<void> {
      const turn = await hub.turns.get(turnId);
      if (!turn || (await hub.toolCalls.stepWaits(turn.id, turn.step))) return;
      if (turn.status === 'waiting') await hub.turns.transition(turn.id, ['waiting'], 'running');
      schedule(turnId);
    },
    /**
     * Running turns nobody holds — their process stopped mid-step, here or on another instance —
     * are scheduled again; the lease decides which instance gets each.
     */
    async resumeOrphans(): Promise<number> {
      const orphans = await hub.turns.orphaned(500);
      for (const turnId of orphans) schedule(turnId);
      return orphans.length;
    },
    abort(turnId: string): void {
      active.get(turnId)?.abort.abort();
    },
    /**
     * Stops taking turns and lets the running ones reach their next stored state (a step's end, a
     * wait), so a closing process leaves no lease behind; after `graceMs` the rest are aborted and
     * their leases lapse for another instance to take over.
     */
    async drain(graceMs = 10_000): Promise<void> {
      closing = true;
      const all = Promise.all([...active.values()].map((entry) => entry.done));
      const timer = setTimeout(() => {
        for (const entry of active.values()) entry.abort.abort();
      }, graceMs);
      timer.unref();
      await all;
      clearTimeout(timer);
    },
    get activeCount(): number {
      return active.size;
    },
  };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;
