import type { HubEventBody, PageRegistry } from '@diosc/protocol';
import type { ModelMessage } from 'ai';
import { filesPermissionOf } from '../assistants/assistant-config.js';
import type { AssistantRecord } from '../assistants/assistants.js';
import { acceptsImages, attachmentParts } from '../files/attachment-parts.js';
import type { HubServices } from '../hub-services.js';
import { isPending, type ToolCallRecord } from '../store/tool-calls.js';
import { consensusRequestOf } from '../tool-calls/consensus-request.js';
import { interruptOf } from '../tool-calls/interrupt-view.js';
import { toolFinished } from '../tool-calls/tool-finished.js';
import { outcomeOf } from '../tool-calls/tool-output.js';
import { classifyCall } from './classify-call.js';
import { modelPrompt } from './model-prompt.js';
import { type ModelStepResult, runModelStep } from './model-step.js';
import { offeredTools } from './offered-tools.js';
import { buildPrompt, systemPrompt } from './prompt.js';

export interface StepOf {
  assistant: AssistantRecord;
  turnId: string;
  conversationId: string;
  step: number;
  registry: PageRegistry;
  /** The conversation's last message number when the run began: a kept history that reaches it is not read again. */
  lastSeq: number;
  signal: AbortSignal;
}

/**
 * One model step of a turn: the step's tools (built afresh from the page's registry and the
 * assistant's server tools), the prompt from the kept history, the provider call with its deltas
 * streamed, then — in one transaction — the model's message, what each call became, the turn
 * waiting if the page or the visitor must act, and the events that announce it all; the step's
 * token counts go to their batch after it. Returns the calls the step issued (none: the model answered).
 */
export async function runStep(hub: HubServices, of: StepOf): Promise<ToolCallRecord[]> {
  const { assistant, turnId, conversationId, step } = of;
  const serverTools = await hub.serverToolsFor(assistant, turnId);
  const tools = offeredTools(assistant.config, of.registry, serverTools);
  const { model, redactor } = await hub.stepModelFor(assistant);
  const stored = await hub.history.messages(conversationId, { through: of.lastSeq });
  const permission = filesPermissionOf(assistant.config);
  const attached = await attachmentParts(hub.files, stored, {
    inlineTextMaxBytes: permission.inlineTextMaxBytes,
    images: acceptsImages(model.provider, permission.modelImages),
  });
  const ref = { turnId, assistantId: assistant.id };
  const endStep = hub.telemetry.modelStep(assistant.id);
  const stepSpan = hub.tracing.modelStepBegan(ref, step, model);
  let outcome: ModelStepResult;
  try {
    outcome = await runModelStep({
      model,
      redactor,
      prompt: modelPrompt(
        systemPrompt(assistant.config, hub.describeSitemap(assistant.config.sitemap)),
        buildPrompt(stored, attached),
      ),
      tools,
      signal: of.signal,
      onDelta: async (delta) => {
        await hub.events.append(conversationId, { type: 'text.delta', turnId, delta });
        await hub.hold?.({ at: 'model.delta', turnId, step });
      },
    });
  } catch (error) {
    endStep('error');
    hub.tracing.modelStepFailed(stepSpan, error);
    throw error;
  }
  endStep('ok');
  hub.tracing.modelStepEnded(stepSpan, outcome);

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
  const issued = await hub.transaction(async (tx) => {
    await tx.conversations.appendMessage(conversationId, { turnId, content });
    const inserted = await tx.toolCalls.insertStep(calls);
    // Waiting is stored with the interrupt's announcement, so a page that reloads on it reads a
    // waiting turn, never a running one.
    // The lease goes with it, unless server calls of the step are still this runner's to run.
    if (inserted.some(isPending)) {
      const keepLease = inserted.some((call) => call.status === 'ready');
      await tx.turns.transition(turnId, ['running'], 'waiting', undefined, { keepLease });
    }
    await tx.events.appendAll(
      conversationId,
      inserted.flatMap((call) => announcementsOf(call, conversationId)),
    );
    return inserted;
  });
  hub.modelUsage.record({ assistantId: assistant.id, conversationId, turnId, ...outcome.usage });
  for (const call of issued) {
    if (isPending(call))
      hub.tracing.waitBegan(ref, call.id, call.status as 'interrupt' | 'consensus', call.tool);
  }
  return issued;
}

/** What the page and the visitor hear of a call as the step issues it. */
function announcementsOf(call: ToolCallRecord, conversationId: string): HubEventBody[] {
  const { turnId } = call;
  if (call.kind === 'refused') return [toolFinished(call, outcomeOf(call.output))];
  const started: HubEventBody = {
    type: 'tool.started',
    turnId,
    toolCallId: call.id,
    tool: call.tool,
    where: call.kind === 'server' ? 'server' : 'browser',
  };
  if (call.status === 'interrupt')
    return [started, { type: 'interrupt', turnId, interrupt: interruptOf(call, conversationId) }];
  if (call.status === 'consensus')
    return [started, { type: 'consensus.requested', turnId, request: consensusRequestOf(call) }];
  return [started];
}
