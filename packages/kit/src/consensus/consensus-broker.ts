import type { ApprovalSeverity, ConsensusOutcome } from '@diosc/protocol';
import { createStore, type Store } from '../conversation/store.js';
import type { DiffRow } from '../types.js';

/** One approval as the dialog shows it: an intent's (computed in the browser) or the hub's. */
export interface ApprovalRequest {
  /** The interrupt id (intents) or the consensus id (server tools). */
  id: string;
  source: 'intent' | 'server';
  /** The tool as the dialog names it (`apply_changes`, or the server tool). */
  tool: string;
  severity: ApprovalSeverity;
  summary: string;
  diff: DiffRow[];
  args: Record<string, unknown>;
  /** The arguments' JSON Schema, for Edit. */
  schema: Record<string, unknown>;
}

export interface Decision {
  outcome: ConsensusOutcome;
  /** Edit only: the values the user settled on (validated against the schema). */
  args?: Record<string, unknown>;
  /** Edit only: which top-level arguments changed. */
  changed?: string[];
  /** Reject only. */
  reason?: string;
}

interface Pending {
  request: ApprovalRequest;
  settle(decision: Decision): void;
  withdraw(): void;
}

/**
 * The queue between whoever needs a decision and the one dialog: requests wait their turn, one is
 * shown at a time. Escape hides the shown request without deciding (it stays pending, and the widget
 * offers to review it again); a withdrawn request (timed out, decided elsewhere) leaves the queue.
 */
export interface ConsensusBroker {
  /** The request on screen, or null. */
  readonly shown: Store<ApprovalRequest | null>;
  /** Every undecided request, shown or not. */
  readonly pending: Store<ApprovalRequest[]>;
  /** Resolves with the user's decision; rejects with `signal`'s reason when withdrawn. */
  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision>;
  /** Called by the dialog only, after the trusted-input guard said yes. */
  decide(id: string, decision: Decision): void;
  /** Escape: hide without a decision. */
  dismiss(): void;
  /** Shows a pending request again (the widget's "Review" button). */
  reopen(id?: string): void;
}

export function createConsensusBroker(): ConsensusBroker {
  const queue: Pending[] = [];
  const shown = createStore<ApprovalRequest | null>(null);
  const pending = createStore<ApprovalRequest[]>([]);
  const hidden = new Set<string>();

  const refresh = () => {
    pending.set(queue.map((each) => each.request));
    const current = shown.get();
    if (current && queue.some((each) => each.request === current)) return;
    shown.set(queue.find((each) => !hidden.has(each.request.id))?.request ?? null);
  };

  const remove = (entry: Pending) => {
    const index = queue.indexOf(entry);
    if (index === -1) return false;
    queue.splice(index, 1);
    hidden.delete(entry.request.id);
    refresh();
    return true;
  };

  return {
    shown,
    pending,
    ask(request, signal) {
      return new Promise<Decision>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const entry: Pending = {
          request,
          settle: (decision) => {
            if (remove(entry)) resolve(decision);
          },
          withdraw: () => {
            if (remove(entry)) reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', entry.withdraw, { once: true });
        queue.push(entry);
        refresh();
      });
    },
    decide(id, decision) {
      queue.find((each) => each.request.id === id)?.settle(decision);
    },
    dismiss() {
      const current = shown.get();
      if (!current) return;
      hidden.add(current.id);
      shown.set(null);
      refresh();
    },
    reopen(id) {
      const entry = queue.find((each) => (id ? each.request.id === id : true));
      if (!entry) return;
      hidden.delete(entry.request.id);
      shown.set(entry.request);
    },
  };
}
