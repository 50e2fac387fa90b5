import { DioscError } from '@diosc/protocol';
import type { Clock } from '../clock.js';

const WINDOW_MS = 60_000;

/**
 * Calls per minute per caller, in fixed one-minute windows. Kept in process memory: a limit on
 * bursts, not an accounting record (usage rows are the record).
 */
export function createCallRate(perMinute: number, clock: Clock) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(actor: string): void {
      const now = clock.now();
      let window = windows.get(actor);
      if (!window || now - window.start >= WINDOW_MS) {
        if (windows.size > 10_000) {
          for (const [key, value] of windows) if (now - value.start >= WINDOW_MS) windows.delete(key);
        }
        window = { start: now, count: 0 };
        windows.set(actor, window);
      }
      if (window.count >= perMinute) {
        throw new DioscError('rate_limited', `More than ${perMinute} calls in a minute; slow down.`, {
          retryAfterMs: window.start + WINDOW_MS - now,
        });
      }
      window.count += 1;
    },
  };
}
