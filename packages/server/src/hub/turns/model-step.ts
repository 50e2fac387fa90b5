import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import { type ReasoningPart, safeParseJSON } from '@ai-sdk/provider-utils';
import type { AssistantModelMessage, TextPart, ToolCallPart } from 'ai';
import { prepareRetries } from 'ai/internal';
import type { SecretRedactor } from '../outbound/secret-redactor.js';
import type { OfferedTool } from './offered-tools.js';

export interface ModelStepResult {
  assistantMessage: AssistantModelMessage | undefined;
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  usage: { inputTokens: number; outputTokens: number };
  /** The provider's finish reason, normalised by the AI SDK (`stop`, `tool-calls`, `length`, …). */
  finishReason: string;
}

/**
 * One model step: the provider model's own `doStream`, called with a prompt the hub already holds
 * converted (model-prompt.ts) and the step's tools, none of which the model layer runs — the hub
 * decides what each call becomes (a server run, an approval request, an interrupt, a refusal) and
 * persists that first. `streamText` is not used: it validates and converts the whole history again
 * on every step, which made a step's cost grow with the conversation (docs/architecture.md, "One
 * model step"). Retries are the AI SDK's own (`prepareRetries`, one retry of a retryable error).
 *
 * What the provider sends back is outside text: the deltas, the final message and every tool call's
 * input pass the assistant's redactor (a provider may echo the key it was sent); a delta is held
 * back just long enough for a secret split across chunks to be caught whole.
 */
export async function runModelStep(input: {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  tools: Map<string, OfferedTool>;
  signal: AbortSignal;
  redactor: SecretRedactor;
  onDelta(delta: string): Promise<void>;
}): Promise<ModelStepResult> {
  const { redactor } = input;
  const tools: LanguageModelV3FunctionTool[] = [];
  for (const [name, offered] of input.tools) {
    tools.push({
      type: 'function',
      name,
      description: offered.description,
      inputSchema: offered.inputSchema as LanguageModelV3FunctionTool['inputSchema'],
    });
  }
  const options: LanguageModelV3CallOptions = {
    prompt: input.prompt,
    abortSignal: input.signal,
    ...(tools.length > 0 ? { tools, toolChoice: { type: 'auto' as const } } : {}),
  };
  const { retry } = prepareRetries({ maxRetries: 1, abortSignal: input.signal });
  const { stream } = await retry(() => input.model.doStream(options));

  const content: (TextPart | ReasoningPart | ToolCallPart)[] = [];
  const open = new Map<string, TextPart | ReasoningPart>();
  const toolCalls: ModelStepResult['toolCalls'] = [];
  let usage: ModelStepResult['usage'] = { inputTokens: 0, outputTokens: 0 };
  let finishReason = 'other';
  let failure: unknown;
  let pending = '';

  const block = (type: 'text' | 'reasoning', id: string, metadata?: SharedV3ProviderMetadata) => {
    const key = `${type}:${id}`;
    let part = open.get(key);
    if (!part) {
      const created: TextPart | ReasoningPart = { type, text: '' };
      open.set(key, created);
      content.push(created);
      part = created;
    }
    // The last metadata a provider sends for a block is the one it wants back (as the SDK keeps it).
    if (metadata) part.providerOptions = metadata;
    return part;
  };

  const reader = (stream as ReadableStream<LanguageModelV3StreamPart>).getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-start':
        case 'text-end':
          block('text', part.id, part.providerMetadata);
          break;
        case 'reasoning-start':
        case 'reasoning-end':
          block('reasoning', part.id, part.providerMetadata);
          break;
        case 'reasoning-delta':
          block('reasoning', part.id, part.providerMetadata).text += part.delta;
          break;
        case 'text-delta': {
          block('text', part.id, part.providerMetadata).text += part.delta;
          if (!part.delta) break;
          pending = redactor.text(pending + part.delta);
          const ready = pending.length - redactor.holdBack;
          if (ready > 0) {
            await input.onDelta(pending.slice(0, ready));
            pending = pending.slice(ready);
          }
          break;
        }
        case 'tool-call': {
          const parsed = await parseInput(part.input);
          toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.value });
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            // Arguments that are not a JSON object are kept as `{}` in the history, as the SDK does.
            input: parsed.ok ? parsed.value : {},
            ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
          });
          break;
        }
        case 'finish':
          usage = {
            inputTokens: part.usage.inputTokens.total ?? 0,
            outputTokens: part.usage.outputTokens.total ?? 0,
          };
          finishReason = part.finishReason.unified;
          break;
        case 'error':
          failure = part.error;
          break;
        // Stream bookkeeping, provider-run tools and sources: nothing the hub keeps.
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (pending) await input.onDelta(pending);
  if (failure) throw failure;

  const kept = content.filter((part) => part.type !== 'text' || part.text.length > 0);
  const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const assistantMessage: AssistantModelMessage | undefined =
    kept.length > 0 ? { role: 'assistant', content: kept } : undefined;
  return {
    assistantMessage: assistantMessage && (redactor.value(assistantMessage) as AssistantModelMessage),
    text: redactor.text(text),
    toolCalls: toolCalls.map((call) => ({ ...call, input: redactor.value(call.input) })),
    usage,
    finishReason,
  };
}

/** A tool call's arguments, parsed safely (no prototype keys); empty means `{}`, unparsable stays text. */
async function parseInput(text: string): Promise<{ ok: boolean; value: unknown }> {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = await safeParseJSON({ text });
  return parsed.success ? { ok: true, value: parsed.value } : { ok: false, value: text };
}
