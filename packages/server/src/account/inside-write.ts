import type { MutatingFunction } from '@diosc/protocol';

/**
 * A seam for tests, given to the core at construction (`createAccountCore({ insideWrite })`):
 * awaited inside a write's transaction once the change and its committed receipt are written and
 * before the transaction commits — the one point where a crash must leave neither. The crash test's
 * child announces itself here and is SIGKILLed by its parent. Production passes nothing.
 *
 * @example
 * createAccountCore({ store, insideWrite: ({ requestId }) => announce(requestId) });
 */
export type InsideWrite = (write: { name: MutatingFunction; requestId: string }) => void | Promise<void>;
