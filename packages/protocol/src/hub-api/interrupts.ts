import type { IntentDecisionReport } from './consensus.js';
import type { FileDescriptor } from './files.js';
import type { PageRegistry, PageSnapshot } from './page.js';

/**
 * A turn waiting on the page: the model called a browser tool, the hub persisted this interrupt and
 * emitted it. `name` is `browser:<tool>` (raw tool) or `browser:browser_<intent>` (intent).
 */
export interface BrowserInterrupt {
  id: string;
  turnId: string;
  conversationId: string;
  name: string;
  /** The raw tool's name, or the intent's name for `kind: 'intent'`. */
  tool: string;
  kind: 'tool' | 'intent';
  args: Record<string, unknown>;
  /** Intents with approval only: the severity the page declared. */
  severity?: 'low' | 'medium' | 'high';
  expiresAt: string;
}

/**
 * The whole continuation the kit sends: the interrupt's result and nothing of the history. A repeat
 * of the same body is acknowledged without effect; a different body for an answered interrupt is a
 * `result_conflict`.
 */
export type InterruptAnswer =
  | {
      /** Any JSON value: what the tool returned. */
      result: unknown;
      /** `navigate` only: the new view, so the hub swaps the turn's registry before the next step. */
      snapshot?: PageSnapshot;
      registry?: PageRegistry;
      /** A file the tool delivered (uploaded first); the model sees only this descriptor. */
      file?: FileDescriptor;
      decision?: IntentDecisionReport;
    }
  | { error: string; decision?: IntentDecisionReport; uncertain?: boolean };

/** Cap on an answer's JSON: a tool result is context for the model, not a transfer channel. */
export const INTERRUPT_ANSWER_MAX_BYTES = 65_536;
