import { DioscError } from '@diosc/protocol';
import type { Clock } from '../clock.js';

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` takes per key, in fixed one-minute windows: the core's calls per caller, and
 * `/mcp`'s requests per connection. Kept in process memory: a limit on bursts, not an accounting
 * record (usage rows are the record). A refused take answers `rate_limited` with `message` and
 * how long until the window ends.
 */
export function createPerMinuteLimit(
  perMinute: number,
  clock: Clock,
  message = `More than ${perMinute} calls in a minute; slow down.`,
) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key: string): void {
      const now = clock.now();
      let window = windows.get(key);
      if (!window || now - window.start >= WINDOW_MS) {
        if (windows.size > 10_000) {
          for (const [stale, value] of windows) if (now - value.start >= WINDOW_MS) windows.delete(stale);
        }
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      if (window.count >= perMinute) {
        throw new DioscError('rate_limited', message, {
          retryAfterMs: window.start + WINDOW_MS - now,
        });
      }
      window.count += 1;
    },
  };
}

export type PerMinuteLimit = ReturnType<typeof createPerMinuteLimit>;
