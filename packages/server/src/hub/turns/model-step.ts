import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type AssistantModelMessage,
  jsonSchema,
  type ModelMessage,
  streamText,
  type TelemetrySettings,
  type ToolSet,
  tool,
} from 'ai';
import type { SecretRedactor } from '../outbound/secret-redactor.js';
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
 * request, an interrupt, a refusal) and persists that first. What the provider sends back is
 * outside text: the deltas, the final message and every tool call's input pass the assistant's
 * redactor (a provider may echo the key it was sent); a delta is held back just long enough for a
 * secret split across chunks to be caught whole.
 */
export async function runModelStep(input: {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: Map<string, OfferedTool>;
  signal: AbortSignal;
  redactor: SecretRedactor;
  onDelta(delta: string): Promise<void>;
  /** The AI SDK's own spans of this step, when traces are on (observability/span-tracing.ts). */
  telemetry?: TelemetrySettings | undefined;
}): Promise<ModelStepResult> {
  const { redactor } = input;
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
    ...(input.telemetry && { experimental_telemetry: input.telemetry }),
    // The error also arrives as a stream part below; without this the SDK prints it to the console,
    // outside the logger's redaction.
    onError: () => {},
  });
  let failure: unknown;
  let pending = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta' && part.text) {
      pending = redactor.text(pending + part.text);
      const ready = pending.length - redactor.holdBack;
      if (ready > 0) {
        await input.onDelta(pending.slice(0, ready));
        pending = pending.slice(ready);
      }
    }
    if (part.type === 'error') failure = part.error;
  }
  if (pending) await input.onDelta(pending);
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
    assistantMessage: assistantMessage && (redactor.value(assistantMessage) as AssistantModelMessage),
    text: redactor.text(text),
    toolCalls: toolCalls.map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: redactor.value(call.input),
    })),
    usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 },
  };
}
