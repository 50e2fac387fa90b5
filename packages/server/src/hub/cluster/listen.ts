import type { HubRunner } from '../hub.js';
import type { HubServices } from '../hub-services.js';

/**
 * What this instance does on another's signal: streams of the conversation read their log, a
 * runnable turn is scheduled (its lease decides whether this instance runs it), a cancelled turn's
 * step is aborted if it runs here. After a gap in listening every stream reads its log and every
 * orphaned turn is looked for, since whatever was announced meanwhile is lost.
 */
export function listenToOtherInstances(
  hub: HubServices,
  runner: Pick<HubRunner, 'schedule' | 'abort'> & { resumeOrphans(): Promise<number> },
): () => void {
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
