import type { ScriptedCall, ScriptedStep } from '@diosc/server/testing';
import type { Step } from './kit-e2e.js';

interface ToolResultPart {
  type: 'tool-result';
  toolName: string;
  toolCallId: string;
  output: { type: string; value: unknown };
}

/** Every tool result the model was shown on this call, oldest first. */
export function toolResults(call: ScriptedCall): ToolResultPart[] {
  return call.prompt.flatMap((message) =>
    message.role === 'tool'
      ? (message.content.filter((part) => part.type === 'tool-result') as unknown as ToolResultPart[])
      : [],
  );
}

/** The output of the newest result of `toolName` the model saw on this call. */
export function lastResult(
  call: ScriptedCall,
  toolName: string,
): { type: string; value: unknown } | undefined {
  return toolResults(call)
    .filter((part) => part.toolName === toolName)
    .at(-1)?.output;
}

/** Resolves when the model has been called `count` times. */
export async function callsReach(
  calls: ScriptedCall[],
  count: number,
  timeoutMs = 15_000,
): Promise<ScriptedCall> {
  const end = Date.now() + timeoutMs;
  while (calls.length < count) {
    if (Date.now() > end) throw new Error(`the model was called ${calls.length} times, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return calls[count - 1]!;
}

/** A script that answers its calls with these steps in order (a function step may wait), then "Done.". */
export function sequence(...steps: (ScriptedStep | Step)[]): Step {
  let next = 0;
  return (call) => {
    const step = steps[next++] ?? { text: 'Done.' };
    return typeof step === 'function' ? step(call) : step;
  };
}
