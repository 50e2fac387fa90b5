import { randomUUID } from 'node:crypto';
import { DioscError, type FileDescriptor, type HubEventBody, type PageSnapshot } from '@diosc/protocol';
import type { ModelMessage, ToolResultPart } from 'ai';
import { filesPermissionOf } from '../assistants/assistant-config.js';
import type { AssistantRecord } from '../assistants/assistants.js';
import { consensusRequestOf } from '../consensus/consensus-request.js';
import { displayMessageOf } from '../conversations/display.js';
import { acceptsImages, attachmentParts } from '../files/attachment-parts.js';
import type { HubServices } from '../hub-services.js';
import { interruptOf } from '../interrupts/interrupt-view.js';
import { safeProviderError } from '../model/safe-provider-error.js';
import { classifyCall, errorOutput } from './classify-call.js';
import { modelPrompt } from './model-prompt.js';
import { runModelStep } from './model-step.js';
import { offeredTools } from './offered-tools.js';
import { buildPrompt, systemPrompt } from './prompt.js';
import type { ToolCallRecord, ToolOutput } from './tool-calls.js';
import type { TurnRecord } from './turns.js';

/**
 * Runs turns one model step at a time. Everything a waiting turn needs is in the store, so the
 * runner can stop between any two steps — a restart, another instance — and `schedule(turnId)`
 * picks the turn up where the store says it is.
 */
export function createTurnRunner(hub: HubServices) {
  const instance = `run_${randomUUID()}`;
  const LEASE_MS = hub.turnLeaseMs;
  const active = new Map<string, { again: boolean; abort: AbortController; done: Promise<void> }>();
  let closing = false;

  const emit = (conversationId: string, body: HubEventBody) => hub.events.append(conversationId, body);

  function schedule(turnId: string): void {
    if (closing) return;
    const running = active.get(turnId);
    if (running) {
      running.again = true;
      return;
    }
    const entry = { again: true, abort: new AbortController(), done: Promise.resolve() };
    active.set(turnId, entry);
    entry.done = (async () => {
      try {
        while (entry.again) {
          entry.again = false;
          await runOnce(turnId, entry.abort.signal, entry.abort);
        }
      } catch (error) {
        hub.log.error({ err: error, turnId }, 'turn runner failed');
      } finally {
        active.delete(turnId);
        hub.onIdle?.();
      }
    })();
  }

  async function runOnce(turnId: string, signal: AbortSignal, abort: AbortController): Promise<void> {
    if (!(await hub.turns.lease(turnId, instance, LEASE_MS))) return;
    // A long model step keeps its lease; one that lost it (this process stalled past the lease)
    // stops, since another instance may be running the turn now.
    const renew = setInterval(() => {
      hub.turns.renewLease(turnId, instance, LEASE_MS).then(
        (held) => held || abort.abort(),
        () => undefined,
      );
    }, LEASE_MS / 3);
    renew.unref();
    try {
      await advance(turnId, signal);
    } catch (error) {
      if (!signal.aborted || (await hub.turns.renewLease(turnId, instance, LEASE_MS)))
        await fail(turnId, error);
    } finally {
      clearInterval(renew);
      await hub.turns.releaseLease(turnId, instance);
    }
    // Still `running` with nobody holding it: an answer that came in on another instance while this
    // one held the lease (its runner was refused). Tell the others; the lease decides who takes it.
    if (!closing && !signal.aborted && (await hub.turns.get(turnId))?.status === 'running') {
      hub.signals.send({ kind: 'runnable', turnId });
    }
  }

  async function advance(turnId: string, signal: AbortSignal): Promise<void> {
    const first = await hub.turns.get(turnId);
    const conversation = first && (await hub.conversations.find(first.conversationId));
    // The assistant is read once per run: a change applies from the turn's next run.
    const assistant = conversation && (await hub.assistants.find(conversation.assistant_id));
    if (!first) return;
    // Failed, not left running: a turn nobody can run would be picked up again and again.
    if (!conversation || !assistant)
      throw new DioscError('not_found', 'The assistant of this conversation no longer exists.');
    for (let turn: TurnRecord | undefined = first; ; turn = await hub.turns.get(turnId)) {
      if (!turn || (turn.status !== 'running' && turn.status !== 'waiting') || signal.aborted) return;

      // Server calls of the step run while the page and the visitor are still deciding theirs.
      const read = await hub.toolCalls.forStep(turn.id, turn.step);
      let changed = false;
      for (const call of read) {
        if (call.status === 'ready') await runServerCall(assistant, conversation.visitor_id, call, signal);
        if (call.status === 'running') await abandonInterrupted(call, turn.conversationId);
        changed ||= call.status === 'ready' || call.status === 'running';
      }
      // Read again only when this run changed a call. Otherwise the read above stands: an answer
      // that lands after it is caught by the look after the transition to waiting below, or, on a
      // waiting turn, by the loop's next read.
      const calls = changed ? await hub.toolCalls.forStep(turn.id, turn.step) : read;
      if (calls.some(isPending)) {
        if (turn.status === 'running') await hub.turns.transition(turn.id, ['running'], 'waiting');
        // An answer may have landed between the read and the transition: look once more.
        const again = await hub.toolCalls.forStep(turn.id, turn.step);
        if (again.some(isPending)) return;
      }
      if (turn.status === 'waiting' || calls.some(isPending)) {
        await hub.turns.transition(turn.id, ['waiting'], 'running');
        continue;
      }
      if (calls.length > 0) {
        if (calls.some((call) => call.status !== 'done')) continue;
        // The results and the step's end commit together, so a restart never appends them twice.
        await hub.transaction(async (tx) => {
          await tx.conversations.appendMessage(turn.conversationId, toolResultsMessage(turn.id, calls));
          await tx.turns.advanceStep(turn.id, turn.step);
        });
        continue;
      }
      if (turn.step >= assistant.config.limits.maxStepsPerTurn) {
        await finish(
          assistant.id,
          turn.conversationId,
          turn.id,
          `I stopped after ${turn.step} steps without finishing.`,
        );
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
    const { model, redactor } = await hub.stepModelFor(assistant);
    const stored = await hub.history.messages(conversationId);
    const permission = filesPermissionOf(assistant.config);
    const attached = await attachmentParts(hub.files, stored, {
      inlineTextMaxBytes: permission.inlineTextMaxBytes,
      images: acceptsImages(model.provider, permission.modelImages),
    });
    const ref = { turnId, assistantId: assistant.id };
    const endStep = hub.telemetry.modelStep(assistant.id);
    const outcome = await hub.tracing
      .modelStep(ref, step, model, () =>
        runModelStep({
          model,
          redactor,
          prompt: modelPrompt(
            systemPrompt(assistant.config, hub.describeSitemap(assistant.config.sitemap)),
            buildPrompt(stored, attached),
          ),
          tools,
          signal,
          onDelta: async (delta) => {
            await emit(conversationId, { type: 'text.delta', turnId, delta });
            await hub.hold?.({ at: 'model.delta', turnId, step });
          },
        }),
      )
      .then(
        (result) => {
          endStep('ok');
          return result;
        },
        (error: unknown) => {
          endStep('error');
          throw error;
        },
      );
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
    const stepCalls = await hub.transaction(async (tx) => {
      await tx.conversations.appendMessage(conversationId, { turnId, content });
      const inserted = await tx.toolCalls.insertStep(calls);
      // Waiting is stored before the interrupt is announced, so a page that reloads on the
      // announcement reads a waiting turn, never a running one.
      if (calls.some((call) => call.status === 'interrupt' || call.status === 'consensus')) {
        await tx.turns.transition(turnId, ['running'], 'waiting');
      }
      return inserted;
    });
    // Usage is a record, not a part of the turn: failing to write it does not fail the turn.
    await hub.modelUsage
      .record({ assistantId: assistant.id, conversationId, turnId, ...outcome.usage })
      .catch((error: unknown) =>
        hub.log.warn({ err: (error as Error)?.message }, 'model usage not recorded'),
      );
    if (calls.length === 0) {
      await finish(assistant.id, conversationId, turnId);
      return true;
    }
    for (const call of stepCalls) {
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
      if (call.status === 'interrupt' || call.status === 'consensus')
        hub.tracing.waitBegan(ref, call.id, call.status, call.tool);
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
    const redactor = await hub.redactorFor(assistant);
    let output: ToolOutput;
    let file: FileDescriptor | undefined;
    try {
      if (!tool)
        throw new DioscError('tool_not_offered', `The server tool "${call.tool}" is no longer available.`);
      const value = await hub.tracing.toolCall(
        { turnId: call.turnId, assistantId: assistant.id },
        call.tool,
        () =>
          tool.execute(call.args, {
            signal,
            assistantId: assistant.id,
            conversationId: turn.conversationId,
            turnId: call.turnId,
            toolCallId: call.id,
            visitorId,
          }),
        () => 'ok',
      );
      file = tool.filesOf?.(value)[0];
      // Every server tool's result is outside text: it passes the redactor before the model, the
      // store or an event sees it, whichever tool it came from.
      const safe = redactor.value(value);
      const edit = call.answer as { decision?: string; changed?: string[] } | null;
      output = {
        type: 'json',
        value:
          edit?.decision === 'edit'
            ? { result: safe, editedByUser: { changed: edit.changed ?? [], arguments: call.args } }
            : (safe ?? null),
      };
    } catch (error) {
      const wire = DioscError.isInstance(error)
        ? error.toWire()
        : { code: 'tool_failed', message: String((error as Error)?.message ?? error) };
      output = errorOutput(wire.code, redactor.text(wire.message).slice(0, 500));
    }
    // A delivered file rides on the call's answer, where the tool message takes its chips from.
    const answer = file ? { ...((call.answer as object | null) ?? {}), file } : undefined;
    await hub.toolCalls.transition(call.id, 'running', 'done', { output, ...(answer ? { answer } : {}) });
    if (file) await emit(turn.conversationId, { type: 'file.ready', turnId: call.turnId, file });
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
  async function abandonInterrupted(call: ToolCallRecord, conversationId: string): Promise<void> {
    const closed = await hub.toolCalls.transition(call.id, 'running', 'done', {
      output: errorOutput(
        'uncertain',
        'The server stopped while this tool was running; it may or may not have completed. Check before repeating it.',
      ),
    });
    // The page saw `tool.started` from the instance that died; it hears how the call ended.
    if (closed) {
      await emit(conversationId, {
        type: 'tool.finished',
        turnId: call.turnId,
        toolCallId: call.id,
        tool: call.tool,
        ok: false,
        summary: 'uncertain',
      });
    }
  }

  async function finish(
    assistantId: string,
    conversationId: string,
    turnId: string,
    text?: string,
  ): Promise<void> {
    if (text) {
      await hub.conversations.appendMessage(conversationId, {
        turnId,
        content: { role: 'assistant', content: text },
      });
    }
    if (!(await hub.turns.transition(turnId, ['running'], 'done'))) return;
    hub.telemetry.turnFinished(assistantId);
    hub.tracing.turnEnded(turnId, 'done');
    await hub.conversations.releaseTurn(conversationId, turnId);
    await hub.releaseServerTools(turnId);
    const message = displayMessageOf(
      await hub.history.messages(conversationId),
      turnId,
      await hub.toolCalls.locations([turnId]),
    );
    if (message) await emit(conversationId, { type: 'message', turnId, message });
    await emit(conversationId, { type: 'turn.done', turnId });
  }

  async function fail(turnId: string, error: unknown): Promise<void> {
    const turn = await hub.turns.get(turnId);
    if (!turn) return;
    // A provider's error is outside text: it loses every secret of the assistant (and anything
    // key-shaped) before the turn's record, the visitor's event or the log sees it.
    const conversation = await hub.conversations.find(turn.conversationId);
    const assistant = conversation && (await hub.assistants.find(conversation.assistant_id));
    const redact = assistant ? (await hub.redactorFor(assistant)).text : (text: string) => text;
    const wire = DioscError.isInstance(error)
      ? { code: error.code, message: redact(error.message) }
      : { code: 'model_failed', message: safeProviderError(redact(plainMessage(error)), []) };
    hub.log.warn({ turnId, code: wire.code }, 'turn failed');
    if (!(await hub.turns.transition(turnId, ['running', 'waiting'], 'failed', wire))) return;
    hub.telemetry.turnFailed(conversation?.assistant_id ?? 'unknown', wire.code);
    hub.tracing.turnEnded(turnId, 'failed', wire.code);
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
    /**
     * Stops taking turns and lets the running ones reach their next stored state (a step's end, a
     * wait), so a closing process leaves no lease behind; after `graceMs` the rest are aborted and
     * their leases lapse for another instance to take over.
     */
    async drain(graceMs = 10_000): Promise<void> {
      closing = true;
      const all = Promise.all([...active.values()].map((entry) => entry.done));
      const timer = setTimeout(() => {
        for (const entry of active.values()) entry.abort.abort();
      }, graceMs);
      timer.unref();
      await all;
      clearTimeout(timer);
    },
    get activeCount(): number {
      return active.size;
    },
  };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;

function isPending(call: ToolCallRecord): boolean {
  return call.status === 'interrupt' || call.status === 'consensus';
}

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

/** A provider's error text, without markup; the redactor and `safeProviderError` do the rest. */
function plainMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/<[^>]*>/g, '');
}
