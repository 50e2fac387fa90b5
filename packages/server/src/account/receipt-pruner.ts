import { startPeriodic } from '../periodic.js';
import type { AccountLimits } from './limits.js';
import type { Receipts } from './receipts.js';

const HOUR_MS = 60 * 60 * 1000;

export interface ReceiptPrunerOptions {
  receipts: Pick<Receipts, 'prune'>;
  limits: Pick<AccountLimits, 'receiptRetentionMs'>;
  /** How often to prune; hourly unless a test or an operator says otherwise. */
  intervalMs?: number;
  /** Where a failed prune is reported; pruning is housekeeping, so a failure never stops the server. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps the receipts table to its documented retention: every interval, deletes receipts older than
 * `limits.receiptRetentionMs`. The timer is unref'd so it never holds the process open.
 * Returns the function that stops it.
 *
 * @example
 * const stop = startReceiptPruner({ receipts: core.receipts, limits: core.limits });
 * app.addHook('onClose', async () => stop());
 */
export function startReceiptPruner(options: ReceiptPrunerOptions): () => void {
  return startPeriodic(() => options.receipts.prune(options.limits.receiptRetentionMs), {
    intervalMs: options.intervalMs ?? HOUR_MS,
    onError: options.onError,
  });
}
