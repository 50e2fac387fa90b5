import { DioscError, type FileDescriptor } from '@diosc/protocol';
import type { AssistantRecord } from '../assistants/assistants.js';
import type { HubServices } from '../hub-services.js';
import type { ToolCallRecord, ToolOutput } from '../store/tool-calls.js';
import { resolveCall } from './resolve-call.js';
import { toolFinished } from './tool-finished.js';
import { errorOutput, outcomeOf } from './tool-output.js';

/**
 * Runs one server tool call that is `ready` (issued, or approved by the visitor): `running` is
 * stored first, so a crash mid-run is never run again (see `abandonInterrupted`), then its result —
 * outside text, redacted — ends it through the door. An edit's arguments and what changed ride on
 * the result, so the model learns the visitor's version ran.
 */
export async function runServerCall(
  hub: HubServices,
  run: { assistant: AssistantRecord; visitorId: string; conversationId: string; signal: AbortSignal },
  call: ToolCallRecord,
): Promise<void> {
  const { assistant, conversationId } = run;
  if (!(await hub.toolCalls.transition(call.id, 'ready', 'running'))) return;
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
          signal: run.signal,
          assistantId: assistant.id,
          conversationId,
          turnId: call.turnId,
          toolCallId: call.id,
          visitorId: run.visitorId,
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
  await resolveCall(hub, undefined, {
    call,
    conversationId,
    from: 'running',
    to: 'done',
    fields: { output, ...(answer ? { answer } : {}) },
    events: [
      ...(file ? [{ type: 'file.ready' as const, turnId: call.turnId, file }] : []),
      toolFinished(call, outcomeOf(output)),
    ],
  });
}

/** A server call cut by a crash may have run: report that honestly, never run it again. */
export async function abandonInterrupted(
  hub: HubServices,
  call: ToolCallRecord,
  conversationId: string,
): Promise<void> {
  // The page saw `tool.started` from the instance that died; it hears how the call ended.
  await resolveCall(hub, undefined, {
    call,
    conversationId,
    from: 'running',
    to: 'done',
    fields: {
      output: errorOutput(
        'uncertain',
        'The server stopped while this tool was running; it may or may not have completed. Check before repeating it.',
      ),
    },
    events: [toolFinished(call, { ok: false, summary: 'uncertain' })],
  });
}
