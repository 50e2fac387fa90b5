import type { BrowserInterrupt } from '@diosc/protocol';
import type { ToolCallRecord } from '../store/tool-calls.js';

/** The interrupt the page sees for a browser tool call (`browser:<tool>`). */
export function interruptOf(call: ToolCallRecord, conversationId: string): BrowserInterrupt {
  const severity = call.severity as BrowserInterrupt['severity'] | null;
  return {
    id: call.id,
    turnId: call.turnId,
    conversationId,
    name: `browser:${call.tool}`,
    tool: call.kind === 'intent' ? call.tool.replace(/^browser_/, '') : call.tool,
    kind: call.kind === 'intent' ? 'intent' : 'tool',
    args: call.args,
    ...(severity ? { severity } : {}),
    expiresAt: new Date(call.expiresAt ?? 0).toISOString(),
  };
}
