import type { InterruptAnswer } from '@diosc/protocol';
import type { KitStorage } from '../hub-client/storage.js';

/**
 * Where one interrupt got to on this origin, written before each step that cannot be repeated:
 * - `started` — the handler was called (a page that died now must not call it again);
 * - `leaving` — a full-page `navigate` was started; the next page's kit answers with `result`;
 * - `answered` — the answer is known; it is re-sent (the hub acknowledges a repeat) until accepted;
 * - `done` — the hub has the answer; nothing more to do.
 */
export type JournalEntry =
  | { state: 'started'; tool: string; at: number }
  | { state: 'leaving'; tool: string; at: number; result: unknown; hadAdapter: boolean }
  | { state: 'answered'; tool: string; at: number; answer: InterruptAnswer }
  | { state: 'done'; tool: string; at: number };

export interface Journal {
  get(interruptId: string): JournalEntry | null;
  set(interruptId: string, entry: JournalEntry): void;
}

const KEY = 'interrupt:';
/** Entries outlive any interrupt's deadline, then go. */
const TTL_MS = 24 * 60 * 60 * 1000;

/** The journal in `localStorage`, shared by the origin's tabs, pruned of expired entries on open. */
export function createJournal(storage: KitStorage, now: () => number = Date.now): Journal {
  for (const key of storage.keys(KEY)) {
    const entry = storage.get<JournalEntry>(key);
    if (!entry || now() - entry.at > TTL_MS) storage.remove(key);
  }
  return {
    get: (id) => storage.get<JournalEntry>(KEY + id),
    set: (id, entry) => storage.set(KEY + id, entry),
  };
}
