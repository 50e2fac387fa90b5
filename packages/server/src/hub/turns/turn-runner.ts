import { randomUUID } from 'node:crypto';
import { DioscError, type FileDescriptor, type HubEventBody, type PageSnapshot } from '@diosc/protocol';
import type { ModelMessage, ToolResultPart } from 'ai';
import type { AssistantRecord } from '../assistants/assistants.js';
import { consensusRequestOf } from '../consensus/consensus-request.js';
import { displayMessageOf } from '../conversations/display.js';
import type { HubServices } from '../hub-services.js';
import { interruptOf } from '../interrupts/interrupt-view.js';
import { classifyCall, errorOutput } from './classify-call.js';
import { runModelStep } from './model-step.js';
import { offeredTools } from './offered-tools.js';
import { buildPrompt, systemPrompt } from './prompt.js';
import type { ToolCallRecord, ToolOutput } from './tool-calls.js';

const LEASE_MS = 60_000;

/**
 * Runs turns one model step at a time. Everything a waiting turn needs is in the store, so the
 * runner can stop between any two steps — a restart, another instance — and `schedule(turnId)`
 * picks the turn up where the store says it is.
 */
export function createTurnRunner(hub: HubServices) {
  const instance = `run_${randomUUID()}`;
  const active = new Map<string, { again: boolean; abort: AbortController }>();

  const emit = (conversationId: string, body: HubEventBody) => hub.events.append(conversationId, body);

  function schedule(turnId: string): void {
    const running = active.get(turnId);
    if (running) {
      running.again = true;
      return;
    }
    const entry = { again: true, abort: new AbortController() };
    active.set(turnId, entry);
    void (async () => {
      try {
        while (entry.again) {
          entry.again = false;
          await runOnce(turnId, entry.abort.signal);
        }
      } catch (error) {
        hub.log.error({ err: error, turnId }, 'turn runner failed');
      } finally {
        active.delete(turnId);
        hub.onIdle?.();
      }
    })();
  }

  async function runOnce(turnId: string, signal: AbortSignal): Promise<void> {
    if (!(await hub.turns.lease(turnId, instance, LEASE_MS))) return;
    try {
      await advance(turnId, signal);
    } catch (error) {
      await fail(turnId, error);
    } finally {
      await hub.turns.releaseLease(turnId, instance);
    }
  }

  async function advance(turnId: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      const turn = await hub.turns.get(turnId);
      if (turn?.status !== 'running' || signal.aborted) return;
      const conversation = await hub.conversations.find(turn.conversationId);
      const assistant = conversation && (await hub.assistants.find(conversation.assistant_id));
      if (!conversation || !assistant) return;
      const calls = await hub.toolCalls.forStep(turn.id, turn.step);

      if (calls.some((call) => call.status === 'interrupt' || call.status === 'consensus')) {
        await hub.turns.transition(turn.id, ['running'], 'waiting');
        // An answer may have landed between the read and the transition: look once more.
        const again = await hub.toolCalls.forStep(turn.id, turn.step);
        if (again.some((call) => call.status === 'interrupt' || call.status === 'consensus')) return;
        await hub.turns.transition(turn.id, ['waiting'], 'running');
        continue;
      }
      if (calls.length > 0) {
        for (const call of calls) {
          if (call.status === 'ready') await runServerCall(assistant, conversation.visitor_id, call, signal);
          if (call.status === 'running') await abandonInterrupted(call);
        }
        const settled = await hub.toolCalls.forStep(turn.id, turn.step);
        if (settled.some((call) => call.status !== 'done')) continue;
        // The results and the step's end commit together, so a restart never appends them twice.
        await hub.transaction(async (tx) => {
          await tx.conversations.appendMessage(turn.conversationId, toolResultsMessage(turn.id, settled));
          await tx.turns.advanceStep(turn.id, turn.step);
        });
        continue;
      }
      if (turn.step >= assistant.config.limits.maxStepsPerTurn) {
        await finish(turn.conversationId, turn.id, `I stopped after ${turn.step} steps without finishing.`);
        return;
      }
      const finished = await modelStep(
        assistant,
        turn.id,
        turn.conversationId,
        turn.step,
        turn.registry,
        signal,
      );
      if (finished) return;
    }
  }

  /** Runs one model step; true when the turn finished (no tool calls). */
  async function modelStep(
    assistant: AssistantRecord,
    turnId: string,
    conversationId: string,
    step: number,
    registry: Parameters<typeof offeredTools>[1],
    signal: AbortSignal,
  ): Promise<boolean> {
    const serverTools = await hub.serverToolsFor(assistant, turnId);
    const tools = offeredTools(assistant.config, registry, serverTools);
    const { model } = await hub.modelFor(assistant);
    const stored = await hub.conversations.messages(conversationId);
    const outcome = await runModelStep({
      model,
      system: systemPrompt(assistant.config, hub.describeSitemap(assistant.config.sitemap)),
      messages: buildPrompt(stored),
      tools,
      signal,
      onDelta: async (delta) => {
        await emit(conversationId, { type: 'text.delta', turnId, delta });
      },
    });
    const now = hub.clock.now();
    const calls = outcome.toolCalls.map((call, position) =>
      classifyCall({
        turnId,
        step,
        position,
        call,
        offered: tools,
        checkPath: (path) => hub.checkPath(assistant.config.sitemap, path),
        deadlines: {
          interruptMs: assistant.config.limits.interruptTimeoutMs,
          consensusMs: assistant.config.limits.consensusTimeoutMs,
        },
        now,
      }),
    );
    const content: ModelMessage = outcome.assistantMessage ?? { role: 'assistant', content: outcome.text };
    await hub.transaction(async (tx) => {
      await tx.conversations.appendMessage(conversationId, { turnId, content });
      await tx.toolCalls.insertStep(calls);
    });
    hub.usage?.recordModelStep(assistant, outcome.usage);
    if (calls.length === 0) {
      await finish(conversationId, turnId);
      return true;
    }
    for (const call of await hub.toolCalls.forStep(turnId, step)) {
      const where = call.kind === 'server' ? 'server' : 'browser';
      if (call.kind !== 'refused') {
        await emit(conversationId, {
          type: 'tool.started',
          turnId,
          toolCallId: call.id,
          tool: call.tool,
          where,
        });
      }
      if (call.status === 'interrupt') {
        await emit(conversationId, {
          type: 'interrupt',
          turnId,
          interrupt: interruptOf(call, conversationId),
        });
      } else if (call.status === 'consensus') {
        await emit(conversationId, {
          type: 'consensus.requested',
          turnId,
          request: consensusRequestOf(call),
        });
      } else if (call.kind === 'refused') {
        await emit(conversationId, {
          type: 'tool.finished',
          turnId,
          toolCallId: call.id,
          tool: call.tool,
          ok: false,
          summary: summaryOf(call.output),
        });
      }
    }
    return false;
  }

  async function runServerCall(
    assistant: AssistantRecord,
    visitorId: string,
    call: ToolCallRecord,
    signal: AbortSignal,
  ): Promise<void> {
    if (!(await hub.toolCalls.transition(call.id, 'ready', 'running'))) return;
    const turn = await hub.turns.get(call.turnId);
    if (!turn) return;
    const tools = await hub.serverToolsFor(assistant, call.turnId);
    const tool = tools.find((candidate) => candidate.name === call.tool);
    let output: ToolOutput;
    try {
      if (!tool)
        throw new DioscError('tool_not_offered', `The server tool "${call.tool}" is no longer available.`);
      const value = await tool.execute(call.args, {
        signal,
        assistantId: assistant.id,
        conversationId: turn.conversationId,
        turnId: call.turnId,
        toolCallId: call.id,
        visitorId,
      });
      const edit = call.answer as { decision?: string; changed?: string[] } | null;
      output = {
        type: 'json',
        value:
          edit?.decision === 'edit'
            ? { result: value, editedByUser: { changed: edit.changed ?? [], arguments: call.args } }
            : (value ?? null),
      };
    } catch (error) {
      const wire = DioscError.isInstance(error)
        ? error.toWire()
        : { code: 'tool_failed', message: String((error as Error)?.message ?? error).slice(0, 500) };
      output = errorOutput(wire.code, wire.message);
    }
    await hub.toolCalls.transition(call.id, 'running', 'done', { output });
    await emit(turn.conversationId, {
      type: 'tool.finished',
      turnId: call.turnId,
      toolCallId: call.id,
      tool: call.tool,
      ok: output.type === 'json',
      summary: summaryOf(output),
    });
  }

  /** A server call cut by a crash may have run: report that honestly, never run it again. */
  async function abandonInterrupted(call: ToolCallRecord): Promise<void> {
    await hub.toolCalls.transition(call.id, 'running', 'done', {
      output: errorOutput(
        'uncertain',
        'The server stopped while this tool was running; it may or may not have completed. Check before repeating it.',
      ),
    });
  }

  async function finish(conversationId: string, turnId: string, text?: string): Promise<void> {
    if (text) {
      await hub.conversations.appendMessage(conversationId, {
        turnId,
        content: { role: 'assistant', content: text },
      });
    }
    if (!(await hub.turns.transition(turnId, ['running'], 'done'))) return;
    await hub.conversations.releaseTurn(conversationId, turnId);
    await hub.releaseServerTools(turnId);
    const message = displayMessageOf(
      await hub.conversations.messages(conversationId),
      turnId,
      await hub.toolCalls.locations([turnId]),
    );
    if (message) await emit(conversationId, { type: 'message', turnId, message });
    await emit(conversationId, { type: 'turn.done', turnId });
  }

  async function fail(turnId: string, error: unknown): Promise<void> {
    const turn = await hub.turns.get(turnId);
    if (!turn) return;
    const wire = DioscError.isInstance(error)
      ? { code: error.code, message: error.message }
      : { code: 'model_failed', message: plainMessage(error) };
    hub.log.warn({ turnId, code: wire.code }, 'turn failed');
    if (!(await hub.turns.transition(turnId, ['running', 'waiting'], 'failed', wire))) return;
    await hub.conversations.releaseTurn(turn.conversationId, turnId);
    await hub.releaseServerTools(turnId);
    await emit(turn.conversationId, { type: 'turn.failed', turnId, error: wire });
  }

  return {
    instance,
    schedule,
    /** Wakes a waiting turn whose current step has nothing pending any more. */
    async resumeIfUnblocked(turnId: string): Promise<void> {
      const turn = await hub.turns.get(turnId);
      if (!turn) return;
      const calls = await hub.toolCalls.forStep(turn.id, turn.step);
      if (calls.some((call) => call.status === 'interrupt' || call.status === 'consensus')) return;
      if (turn.status === 'waiting') await hub.turns.transition(turn.id, ['waiting'], 'running');
      schedule(turnId);
    },
    abort(turnId: string): void {
      active.get(turnId)?.abort.abort();
    },
    get activeCount(): number {
      return active.size;
    },
  };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;

function toolResultsMessage(turnId: string, calls: ToolCallRecord[]) {
  const content: ToolResultPart[] = calls.map((call) => ({
    type: 'tool-result',
    toolCallId: call.modelCallId,
    toolName: call.tool,
    output: (call.output ?? errorOutput('internal', 'No result.')) as ToolResultPart['output'],
  }));
  const answers = calls.map(
    (call) => (call.answer ?? {}) as { snapshot?: PageSnapshot; file?: FileDescriptor },
  );
  const navigate = calls.findIndex((call) => call.tool === 'navigate' && call.kind === 'browser');
  return {
    turnId,
    content: { role: 'tool' as const, content },
    snapshot: navigate >= 0 ? (answers[navigate]?.snapshot ?? null) : null,
    files: answers.flatMap((answer) => (answer.file ? [answer.file] : [])),
  };
}

function summaryOf(output: ToolOutput | null): string | undefined {
  if (!output) return undefined;
  if (output.type === 'error-text') return output.value.split(':')[0]?.slice(0, 64);
  if (output.type === 'execution-denied') return 'declined';
  return 'ok';
}

/** A provider's error text, plain and short, without anything that looks like a key. */
function plainMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/(sk|pk|key|token)[-_][A-Za-z0-9_-]{8,}/gi, '[redacted]')
    .replace(/<[^>]*>/g, '')
    .slice(0, 300);
}
