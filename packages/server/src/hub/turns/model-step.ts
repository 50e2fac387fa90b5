import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type AssistantModelMessage,
  jsonSchema,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import type { OfferedTool } from './offered-tools.js';

export interface ModelStepResult {
  assistantMessage: AssistantModelMessage | undefined;
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * One model step: one `streamText` call with the step's tools and no `execute` on any of them, so
 * the SDK never runs a tool — the hub decides what each call becomes (a server run, an approval
 * request, an interrupt, a refusal) and persists that first.
 */
export async function runModelStep(input: {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: Map<string, OfferedTool>;
  signal: AbortSignal;
  onDelta(delta: string): Promise<void>;
}): Promise<ModelStepResult> {
  const tools: ToolSet = {};
  for (const [name, offered] of input.tools) {
    tools[name] = tool({ description: offered.description, inputSchema: jsonSchema(offered.inputSchema) });
  }
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    tools,
    abortSignal: input.signal,
    maxRetries: 1,
    // The error also arrives as a stream part below; without this the SDK prints it to the console,
    // outside the logger's redaction.
    onError: () => {},
  });
  let failure: unknown;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta' && part.text) await input.onDelta(part.text);
    if (part.type === 'error') failure = part.error;
  }
  if (failure) throw failure;
  const [response, toolCalls, text, usage] = await Promise.all([
    result.response,
    result.toolCalls,
    result.text,
    result.usage,
  ]);
  // Only the assistant's own message is kept: the SDK's tool message for an unknown tool is
  // replaced by the hub's own result for every call.
  const assistantMessage = response.messages.find(
    (message): message is AssistantModelMessage => message.role === 'assistant',
  );
  return {
    assistantMessage,
    text,
    toolCalls: toolCalls.map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    })),
    usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 },
  };
}
