import type { HubServices } from '../hub-services.js';
import { errorOutput } from '../turns/classify-call.js';
import type { TurnRunner } from '../turns/turn-runner.js';

/**
 * Closes interrupts and approval requests whose deadline passed: the model is told the page did
 * not answer (or nobody decided) and the turn goes on. Deadlines are in the store, so any instance
 * may close them, and the compare-and-set makes a late answer and the timeout exclusive.
 */
export async function sweepDeadlines(hub: HubServices, runner: TurnRunner): Promise<number> {
  let closed = 0;
  for (const call of await hub.toolCalls.overdue()) {
    const interrupt = call.status === 'interrupt';
    const output = interrupt
      ? errorOutput('interrupt_timed_out', 'The page did not answer this browser tool in time.')
      : errorOutput('interrupt_timed_out', 'Nobody decided on this action in time; it did not run.');
    if (!(await hub.toolCalls.transition(call.id, call.status, 'done', { output }))) continue;
    closed++;
    hub.tracing.waitEnded(call.id, 'timed_out');
    const turn = await hub.turns.get(call.turnId);
    if (!turn) continue;
    if (!interrupt) {
      const conversation = await hub.conversations.find(turn.conversationId);
      hub.telemetry.consensusDecided(conversation?.assistant_id ?? 'unknown', 'timed_out');
    }
    if (interrupt) {
      await hub.events.append(turn.conversationId, {
        type: 'interrupt.resolved',
        turnId: turn.id,
        interruptId: call.id,
        outcome: 'timed_out',
      });
    }
    await hub.events.append(turn.conversationId, {
      type: 'tool.finished',
      turnId: turn.id,
      toolCallId: call.id,
      tool: call.tool,
      ok: false,
      summary: 'interrupt_timed_out',
    });
    await runner.resumeIfUnblocked(turn.id);
  }
  return closed;
}

/**
 * Running turns nobody holds — their process stopped mid-step, here or on another instance — are
 * scheduled again; the lease decides which instance gets each.
 */
export async function resumeOrphans(hub: HubServices, runner: TurnRunner): Promise<number> {
  const orphans = await hub.turns.orphaned(500);
  for (const turnId of orphans) runner.schedule(turnId);
  return orphans.length;
}

export function startDeadlineSweeper(hub: HubServices, runner: TurnRunner, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([sweepDeadlines(hub, runner), resumeOrphans(hub, runner)])
      .catch((error: unknown) => hub.log.warn({ err: error }, 'deadline sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
