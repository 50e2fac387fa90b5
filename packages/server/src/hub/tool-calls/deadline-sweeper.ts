import type { HubRunner } from '../hub.js';
import type { HubServices } from '../hub-services.js';
import { resolveCall } from './resolve-call.js';
import { toolFinished } from './tool-finished.js';
import { errorOutput } from './tool-output.js';

/**
 * Closes interrupts and approval requests whose deadline passed: the model is told the page did
 * not answer (or nobody decided) and the turn goes on. Deadlines are in the store, so any instance
 * may close them, and the compare-and-set makes a late answer and the timeout exclusive.
 */
export async function sweepDeadlines(
  hub: HubServices,
  runner: Pick<HubRunner, 'schedule' | 'instance' | 'leaseMs'>,
): Promise<number> {
  let closed = 0;
  for (const call of await hub.toolCalls.overdue()) {
    const turn = await hub.turns.get(call.turnId);
    if (!turn) continue;
    const interrupt = call.status === 'interrupt';
    const output = interrupt
      ? errorOutput('interrupt_timed_out', 'The page did not answer this browser tool in time.')
      : errorOutput('interrupt_timed_out', 'Nobody decided on this action in time; it did not run.');
    const won = await resolveCall(hub, runner, {
      call,
      conversationId: turn.conversationId,
      from: call.status,
      to: 'done',
      fields: { output },
      events: [
        ...(interrupt
          ? [
              {
                type: 'interrupt.resolved' as const,
                turnId: turn.id,
                interruptId: call.id,
                outcome: 'timed_out' as const,
              },
            ]
          : []),
        toolFinished(call, { ok: false, summary: 'interrupt_timed_out' }),
      ],
    });
    if (!won) continue;
    closed++;
    hub.tracing.waitEnded(call.id, 'timed_out');
    if (!interrupt) {
      const conversation = await hub.conversations.find(turn.conversationId);
      hub.telemetry.consensusDecided(conversation?.assistant_id ?? 'unknown', 'timed_out');
    }
  }
  return closed;
}

/**
 * Every `intervalMs`: overdue calls closed, and running turns nobody holds (their process stopped
 * mid-step, here or on another instance) handed to the runner, whose lease decides who runs each.
 */
export function startDeadlineSweeper(
  hub: HubServices,
  runner: Pick<HubRunner, 'schedule' | 'instance' | 'leaseMs'> & { resumeOrphans(): Promise<number> },
  intervalMs: number,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([sweepDeadlines(hub, runner), runner.resumeOrphans()])
      .catch((error: unknown) => hub.log.warn({ err: error }, 'deadline sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
