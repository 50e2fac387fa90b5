import type { FileDescriptor, PageSnapshot } from '@diosc/protocol';
import type { ToolResultPart } from 'ai';
import type { ToolCallRecord } from '../store/tool-calls.js';
import { errorOutput } from './tool-output.js';

/**
 * The tool message that closes a step: every call's result in the model's order. A navigate
 * answer's page snapshot rides on it (the prompt shows only the newest), and files delivered by
 * the calls give the message its chips.
 */
export function stepResultsMessage(turnId: string, calls: readonly ToolCallRecord[]) {
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
