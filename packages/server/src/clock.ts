/** Time as the server sees it; tests inject their own to move past expiries without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** What tests hold: a clock and the hand that moves it. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

/** A clock that only moves when told to: expiries are tested by moving it, never by waiting. */
export function manualClock(start = Date.UTC(2026, 10, 29, 12)): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
  };
}
