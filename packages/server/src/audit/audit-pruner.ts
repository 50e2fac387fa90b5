import type { Clock } from '../clock.js';
import { startPeriodic } from '../periodic.js';
import type { AuditLog } from './audit-log.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Keeps the audit to its configured retention (`auditRetentionDays`): every hour, deletes the
 * records older than that. Returns the function that stops it.
 */
export function startAuditPruner(options: {
  log: Pick<AuditLog, 'prune'>;
  clock: Clock;
  retentionDays: number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}): () => void {
  return startPeriodic(() => options.log.prune(options.retentionDays, options.clock.now()), {
    intervalMs: options.intervalMs ?? HOUR_MS,
    onError: options.onError,
  });
}
