import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/** One model step the script answers with: some text, then zero or more tool calls. */
export interface ScriptedStep {
  text?: string;
  toolCalls?: { toolName: string; input: Record<string, unknown> }[];
}

/** What the model was asked, recorded for every call (the prompt exactly as the AI SDK passed it). */
export interface ScriptedCall {
  prompt: LanguageModelV3Prompt;
  /** Names of the tools offered on this call. */
  tools: string[];
  /** 0 for the model's first call, 1 for the second, … */
  index: number;
}

/** Steps served one per call, or a function that decides each step (it may wait, to hold a turn open). */
export type Script = ScriptedStep[] | ((call: ScriptedCall) => ScriptedStep | Promise<ScriptedStep>);

export interface ScriptedModelOptions {
  /** Shown wherever the model is named; defaults to `scripted-test`. */
  modelId?: string;
  /** Pause between stream parts, so a test can watch a step stream. Default 0. */
  chunkDelayMs?: number;
  /** Tool-call ids; random by default so ids stay unique across restarts within a conversation. */
  generateId?: () => string;
}

/** A real AI SDK v3 language model that follows a script. Never an AI: `provider` is `scripted`. */
export interface ScriptedModel extends LanguageModelV3 {
  readonly provider: 'scripted';
  readonly calls: ScriptedCall[];
}

export const SCRIPT_EXHAUSTED_TEXT = '(the script has no more steps)';

/**
 * Our own small `LanguageModelV3` rather than `MockLanguageModelV3` from `ai/test`: the demo model
 * runs in production (`npm start` without a key), and `ai/test` is a test-only entry point.
 *
 * @example
 * const model = createScriptedModel([{ toolCalls: [{ toolName: 'navigate', input: { path: '/' } }] }]);
 * await streamText({ model, prompt: 'go home', tools }).toolCalls;
 */
export function createScriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  const calls: ScriptedCall[] = [];
  const modelId = options.modelId ?? 'scripted-test';
  const generateId = options.generateId ?? (() => `call_${crypto.randomUUID().replaceAll('-', '')}`);

  async function next(callOptions: LanguageModelV3CallOptions): Promise<Planned> {
    const call: ScriptedCall = {
      prompt: callOptions.prompt,
      tools: (callOptions.tools ?? []).map((tool) => tool.name),
      index: calls.length,
    };
    calls.push(call);
    const step = Array.isArray(script)
      ? (script[call.index] ?? { text: SCRIPT_EXHAUSTED_TEXT })
      : await script(call);
    const toolCalls = (step.toolCalls ?? []).map((toolCall) => ({
      type: 'tool-call' as const,
      toolCallId: generateId(),
      toolName: toolCall.toolName,
      input: JSON.stringify(toolCall.input),
    }));
    const text = step.text ?? '';
    const finishReason: LanguageModelV3FinishReason =
      toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
    return { text, toolCalls, finishReason, usage: estimateUsage(callOptions.prompt, text, toolCalls) };
  }

  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId,
    supportedUrls: {},
    calls,
    async doGenerate(callOptions) {
      const planned = await next(callOptions);
      const content: LanguageModelV3Content[] = [];
      if (planned.text) content.push({ type: 'text', text: planned.text });
      content.push(...planned.toolCalls);
      return { content, finishReason: planned.finishReason, usage: planned.usage, warnings: [] };
    },
    async doStream(callOptions) {
      const planned = await next(callOptions);
      const parts = streamParts(planned, `text_${calls.length}`);
      const signal = callOptions.abortSignal;
      const delay = options.chunkDelayMs ?? 0;
      let position = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          if (delay > 0 && position > 0) await new Promise((resolve) => setTimeout(resolve, delay));
          if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          const part = parts[position++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

interface Planned {
  text: string;
  toolCalls: Extract<LanguageModelV3Content, { type: 'tool-call' }>[];
  finishReason: LanguageModelV3FinishReason;
  usage: LanguageModelV3Usage;
}

/** The v3 stream a real provider emits: text in a few deltas, then each tool call's input, then finish. */
function streamParts(planned: Planned, textId: string): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (planned.text) {
    parts.push({ type: 'text-start', id: textId });
    for (const delta of splitText(planned.text)) parts.push({ type: 'text-delta', id: textId, delta });
    parts.push({ type: 'text-end', id: textId });
  }
  for (const call of planned.toolCalls) {
    parts.push(
      { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName },
      { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
      { type: 'tool-input-end', id: call.toolCallId },
      call,
    );
  }
  parts.push({ type: 'finish', finishReason: planned.finishReason, usage: planned.usage });
  return parts;
}

/** Up to four deltas on word boundaries, so streaming is observable but the text is unchanged. */
function splitText(text: string, pieces = 4): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const size = Math.ceil(words.length / pieces);
  const deltas: string[] = [];
  for (let start = 0; start < words.length; start += size)
    deltas.push(words.slice(start, start + size).join(''));
  return deltas;
}

/** A rough count (4 characters a token), so usage accounting has numbers to add up. */
function estimateUsage(prompt: LanguageModelV3Prompt, text: string, calls: { input: string }[]) {
  const input = Math.ceil(JSON.stringify(prompt).length / 4);
  const textTokens = Math.ceil(text.length / 4);
  const output = textTokens + calls.reduce((sum, call) => sum + Math.ceil(call.input.length / 4), 0);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: textTokens, reasoning: 0 },
  } satisfies LanguageModelV3Usage;
}
