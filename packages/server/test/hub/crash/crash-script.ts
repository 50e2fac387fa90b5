import { appendFileSync } from 'node:fs';
import type { ScriptedCall, ScriptedStep } from '@diosc/server/testing';
import type { ServerTool } from '../../../src/hub/server-tools/server-tool.js';

export const MODEL_REPLY = 'The step ran again after the crash and finished.';
export const TOOL_REPLY = 'The tally may or may not have counted.';

/**
 * The model of every instance in the crash tests, the killed child's and the restarted one's: it
 * plans from the prompt (which scenario, how many tool results so far), so a step that runs again on
 * another process answers the same.
 */
export function crashScript(call: ScriptedCall): ScriptedStep {
  const lastUser = call.prompt.findLastIndex((message) => message.role === 'user');
  const said = JSON.stringify(call.prompt[lastUser]);
  const results = call.prompt.slice(lastUser).filter((message) => message.role === 'tool').length;
  if (said.includes('crash-tool') && results === 0) return { toolCalls: [{ toolName: 'tally', input: {} }] };
  return { text: said.includes('crash-tool') ? TOOL_REPLY : MODEL_REPLY };
}

/**
 * A server tool whose side effect is a line in a file: the count of lines is the count of
 * executions, whichever process ran them, and survives the process that ran it being killed.
 */
export function tallyTool(sideEffectFile: string, afterEffect?: () => Promise<void>): ServerTool {
  return {
    name: 'tally',
    description: 'Counts one execution.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    async execute(_args, context) {
      appendFileSync(sideEffectFile, `${context.toolCallId} ${process.pid}\n`);
      await afterEffect?.();
      return { counted: true };
    },
  };
}
