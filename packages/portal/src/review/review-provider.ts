import { DioscError } from '@diosc/protocol';
import type { Reviewer, ReviewReceipt } from '@diosc/webmcp';
import { Observable } from '../state/observable.js';

/** What the review dialog may show: an id and the frozen receipt. Nothing here settles anything. */
export interface PendingReview {
  readonly id: number;
  readonly receipt: Readonly<ReviewReceipt>;
}

/** The one capability that settles reviews, handed to the review dialog once. */
export interface ReviewDecider {
  decide(id: number, decision: 'accept' | 'reject'): void;
}

export type CancelReason = 'replaced' | 'sign-out' | 'selection-changed' | 'teardown';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

interface Entry extends PendingReview {
  settle(decision: 'accept' | 'reject' | Error): void;
}

/**
 * The WebMCP adapter's `reviewer`. The pending decision (the promise's resolver) lives only here, in
 * a private field; the UI sees a frozen copy of the receipt and gets the settling capability exactly
 * once. Nothing in the UI is locked while a review waits: the provider holds the promise, the page
 * keeps working, and a newer request, sign-out, a selection change or teardown cancel the old one.
 */
export class ReviewProvider {
  readonly current = new Observable<PendingReview | null>(null);
  #entry: Entry | null = null;
  #sequence = 0;
  #deciderIssued = false;

  readonly reviewer: Reviewer = ({ receipt, signal }) =>
    new Promise<'accept' | 'reject'>((resolve, reject) => {
      // Input replacement: a newer change request supersedes the one on screen.
      this.cancel('replaced');
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => entry.settle(new DioscError('cancelled', 'The change request was withdrawn.'));
      const entry: Entry = {
        id: ++this.#sequence,
        // A private copy: whatever happens to the object the adapter passed, this is what is shown.
        receipt: deepFreeze(structuredClone(receipt) as ReviewReceipt),
        settle: (decision) => {
          if (this.#entry !== entry) return;
          this.#entry = null;
          signal.removeEventListener('abort', onAbort);
          this.current.set(null);
          if (decision instanceof Error) reject(decision);
          else resolve(decision);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#entry = entry;
      this.current.set({ id: entry.id, receipt: entry.receipt });
    });

  /** Hands out the settling capability once (to the review dialog); later callers get nothing. */
  claimDecider(): ReviewDecider | null {
    if (this.#deciderIssued) return null;
    this.#deciderIssued = true;
    return {
      decide: (id, decision) => {
        if (this.#entry?.id === id) this.#entry.settle(decision);
      },
    };
  }

  /** Cancels the pending review, if any; the agent gets `cancelled`, nothing is dispatched. */
  cancel(reason: CancelReason): void {
    const messages: Record<CancelReason, string> = {
      replaced: 'A newer change request replaced this one before it was reviewed.',
      'sign-out': 'The owner signed out before reviewing the change.',
      'selection-changed': 'The browser-tools selection changed before the change was reviewed.',
      teardown: 'The page closed before the change was reviewed.',
    };
    this.#entry?.settle(new DioscError('cancelled', messages[reason]));
  }
}
