import type { CallChannel, FunctionName } from '@diosc/protocol';
import type { CallHold } from '../account/call-hold.js';

/** Which call to hold: every field given must match (the channel is the caller's `via`). */
export interface CallMatch {
  channel?: CallChannel;
  name?: FunctionName;
  accountId?: string;
}

/** One held call: `reached` once a matching call waits at the hold, `release()` lets it go on. */
export interface HeldCall {
  reached: Promise<void>;
  release(): void;
}

interface Waiter {
  match: CallMatch;
  arrived(): void;
  released: Promise<void>;
}

/**
 * Holds chosen calls in flight, through the core's `CallHold` seam: pass `gate.hold` as the app's
 * `holdCall` at construction, then `gate.next(match)` catches the next matching call once it has
 * passed its authority checks, before its work runs. Calls nobody waits for go straight on.
 *
 * @example
 * const gate = createCallGate();
 * const server = await startTestServer({ app: { holdCall: gate.hold } });
 * const held = gate.next({ channel: 'browser', name: 'item_write' });
 * const answer = fetch(…execute…);
 * await held.reached; // the write is authorized and waiting: act now
 * held.release();
 */
export function createCallGate() {
  const waiters: Waiter[] = [];
  const releases: (() => void)[] = [];

  const hold: CallHold = async ({ name, caller }) => {
    const index = waiters.findIndex(
      ({ match }) =>
        (match.channel === undefined || match.channel === caller.via) &&
        (match.name === undefined || match.name === name) &&
        (match.accountId === undefined || match.accountId === caller.accountId),
    );
    if (index === -1) return;
    const [waiter] = waiters.splice(index, 1);
    waiter!.arrived();
    await waiter!.released;
  };

  return {
    hold,
    next(match: CallMatch = {}): HeldCall {
      let arrived!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      releases.push(release);
      waiters.push({ match, arrived, released });
      return { reached, release };
    },
    /** Lets every held call go on and forgets the calls still awaited (for `afterEach`). */
    releaseAll(): void {
      waiters.length = 0;
      for (const release of releases.splice(0)) release();
    },
  };
}

export type CallGate = ReturnType<typeof createCallGate>;
