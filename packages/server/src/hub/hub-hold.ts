/** A named point inside the hub's work where a test may stop it (and kill the process there). */
export type HubHoldPoint =
  /** A model step has streamed a delta, and its `text.delta` event is in the log. */
  | { at: 'model.delta'; turnId: string; step: number }
  /** An upload's chunk row is stored; the file is still `writing`. */
  | { at: 'file.chunk'; fileId: string; seq: number };

/**
 * Test seam, like the account core's `CallHold`: awaited at each `HubHoldPoint`, so a crash test can
 * have a child process announce "I am inside the step" and be killed right there, deterministically,
 * instead of guessing with timers. Production passes none.
 */
export type HubHold = (point: HubHoldPoint) => Promise<void>;
