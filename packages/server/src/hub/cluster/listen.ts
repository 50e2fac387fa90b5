import type { FastifyBaseLogger } from 'fastify';
import type { HubSignals } from './hub-signal.js';

/** The parts of the hub a signal reaches (the hub's services are one): its streams, and the log. */
export interface SignalListeners {
  signals: HubSignals;
  /** Wakes the streams of one conversation, or every stream, to read their log. */
  bus: { wake(conversationId: string): void; wakeAll(): void };
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The turn runner as a signal drives it (the hub's runner is one). */
export interface SignalRunner {
  schedule(turnId: string): void;
  abort(turnId: string): void;
  resumeOrphans(): Promise<number>;
}

/**
 * What this instance does on another's signal: streams of the conversation read their log, a
 * runnable turn is scheduled (its lease decides whether this instance runs it), a cancelled turn's
 * step is aborted if it runs here. After a gap in listening every stream reads its log and every
 * orphaned turn is looked for, since whatever was announced meanwhile is lost.
 */
export function listenToOtherInstances(hub: SignalListeners, runner: SignalRunner): () => void {
  return hub.signals.subscribe((signal) => {
    if (signal === 'lost') {
      hub.bus.wakeAll();
      runner
        .resumeOrphans()
        .catch((error: unknown) => hub.log.warn({ err: error }, 'resuming orphaned turns failed'));
    } else if (signal.kind === 'events') hub.bus.wake(signal.conversationId);
    else if (signal.kind === 'runnable') runner.schedule(signal.turnId);
    else runner.abort(signal.turnId);
  });
}
