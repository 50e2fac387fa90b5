// What the load's clients were told succeeded — the claims reconcile.ts checks against the store.

/** A write a client was told was done: its receipt must be committed and its item there. */
export interface AckedWrite {
  via: 'mcp' | 'owner' | 'consensus';
  actor: string;
  requestId: string;
  item: string;
}

export interface Ledger {
  writes: AckedWrite[];
  /** Interrupt ids answered with `accepted`, one entry per acceptance. */
  answered: string[];
  /** Turns accepted (202) that the client then saw finish. */
  turns: string[];
  /** Files uploaded (201) with their size. */
  files: { fileId: string; sizeBytes: number }[];
  /** Per conversation, the event ids its SSE client received, in order. */
  streams: Record<string, number[]>;
}

export const emptyLedger = (): Ledger => ({ writes: [], answered: [], turns: [], files: [], streams: {} });
