import type { LogEvent } from 'kysely';

/**
 * Failed statements, told to whoever listens (the metrics). A unique-key violation is left out:
 * the event log and the conversation append race for the next id on purpose and retry
 * (event-log.ts), so it is the design working, not the store failing.
 */
export interface StoreErrors {
  /** Kysely's `log` option. */
  log(event: LogEvent): void;
  /** For a failure outside Kysely (the SQLite read connection). */
  report(error: unknown): void;
  observe(listener: () => void): () => void;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

export function createStoreErrors(): StoreErrors {
  const listeners = new Set<() => void>();
  const report = (error: unknown) => {
    if (isUniqueViolation(error)) return;
    for (const listener of listeners) listener();
  };
  return {
    log(event) {
      if (event.level === 'error') report(event.error);
    },
    report,
    observe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
