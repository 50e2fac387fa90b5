import { randomUUID } from 'node:crypto';
import type { NewToolCall } from '../store/tool-calls.js';
import { argsDigest, errorOutput } from '../tool-calls/tool-output.js';
import type { OfferedTool } from './offered-tools.js';

export type PathCheck = (path: string) => { ok: true } | { ok: false; message: string };

/**
 * What one model tool call becomes, decided before anything runs and persisted with the step:
 * a refusal (unknown tool, invalid arguments, a path outside the Sitemap) answered to the model at
 * once; a browser interrupt; an approval request; or a server call ready to run.
 */
export function classifyCall(input: {
  turnId: string;
  step: number;
  position: number;
  call: { toolCallId: string; toolName: string; input: unknown };
  offered: Map<string, OfferedTool>;
  checkPath: PathCheck;
  deadlines: { interruptMs: number; consensusMs: number };
  now: number;
}): NewToolCall {
  const { call, offered } = input;
  const args = (
    call.input && typeof call.input === 'object' && !Array.isArray(call.input) ? call.input : {}
  ) as Record<string, unknown>;
  const tool = offered.get(call.toolName);
  const base = {
    id: `tc_${randomUUID()}`,
    turnId: input.turnId,
    step: input.step,
    position: input.position,
    modelCallId: call.toolCallId,
    tool: call.toolName.slice(0, 128),
    args,
    argsDigest: argsDigest(args),
    schema: tool ? tool.inputSchema : null,
    severity: tool?.severity ?? null,
    expiresAt: null,
  };
  const refuse = (code: string, message: string): NewToolCall => ({
    ...base,
    kind: 'refused',
    status: 'done',
    output: errorOutput(code, message),
  });
  if (!tool) return refuse('tool_not_offered', `There is no tool "${base.tool}" in this step.`);
  const problem =
    typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input)
      ? tool.check(args)
      : 'arguments must be a JSON object.';
  if (problem) return refuse('invalid_input', problem);
  if (tool.kind !== 'server') {
    if (tool.pageName === 'navigate' && tool.kind === 'browser') {
      const verdict = input.checkPath(String(args.path));
      if (!verdict.ok) return refuse('path_not_in_sitemap', verdict.message);
    }
    return {
      ...base,
      kind: tool.kind,
      status: 'interrupt',
      output: null,
      expiresAt: input.now + input.deadlines.interruptMs,
    };
  }
  if (tool.severity) {
    return {
      ...base,
      kind: 'server',
      status: 'consensus',
      output: null,
      expiresAt: input.now + input.deadlines.consensusMs,
    };
  }
  return { ...base, kind: 'server', status: 'ready', output: null };
}
