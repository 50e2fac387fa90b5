import type { EventBus } from './event-bus.js';
import type { EventLog } from './event-log.js';

/** Conversations per statement: one `in (…)` list stays well under every driver's parameter cap. */
const CONVERSATIONS_PER_LOOK = 500;

/**
 * The look at the log that covers what no signal announced (a dropped `NOTIFY`, a second process on
 * one SQLite file): one look per interval for all of this process's streams, not one read per
 * stream. It reads the newest event id of every watched conversation, one statement per 500, and
 * wakes only the conversations whose log grew past what the bus knew. Where the store has a change
 * counter (SQLite), a look with no commit since the last one reads nothing at all, so idle streams
 * cost no statements.
 */
export function createLogWatch(
  events: Pick<EventLog, 'newestOf'>,
  bus: EventBus,
  dataVersion?: () => number,
) {
  let lookedAt: number | undefined;
  return async function look(): Promise<void> {
    const watched = bus.watched();
    if (watched.length === 0) return;
    if (dataVersion) {
      // Read before the statements below, so a commit after it moves the counter for the next look.
      const version = dataVersion();
      if (version === lookedAt) return;
      lookedAt = version;
    }
    for (let start = 0; start < watched.length; start += CONVERSATIONS_PER_LOOK) {
      const newest = await events.newestOf(watched.slice(start, start + CONVERSATIONS_PER_LOOK));
      for (const [conversationId, id] of newest) bus.logReaches(conversationId, id);
    }
  };
}
