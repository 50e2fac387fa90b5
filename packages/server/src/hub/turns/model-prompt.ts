import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { AssistantContent, FilePart, ModelMessage, ToolResultPart, UserContent } from 'ai';

/**
 * A stored message as the provider model takes it (the AI SDK's `LanguageModelV3Message`),
 * converted once per message object and kept: the step's prompt is then assembled from converted
 * messages, and its cost does not grow with the history. The rules are the AI SDK's own
 * (`convertToLanguageModelPrompt`): empty text parts dropped, images as `file` parts, consecutive
 * tool messages merged.
 */
const converted = new WeakMap<ModelMessage, LanguageModelV3Message>();

export function modelPrompt(system: string, messages: readonly ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: 'system', content: system }];
  for (const message of messages) {
    const next = convertedMessage(message);
    const last = prompt.at(-1);
    // Providers take one tool message per set of results, as the AI SDK sends them.
    if (next.role === 'tool' && last?.role === 'tool') {
      prompt[prompt.length - 1] = { ...last, content: [...last.content, ...next.content] };
    } else prompt.push(next);
  }
  return prompt;
}

function convertedMessage(message: ModelMessage): LanguageModelV3Message {
  let out = converted.get(message);
  if (!out) {
    out = convert(message);
    converted.set(message, out);
  }
  return out;
}

function convert(message: ModelMessage): LanguageModelV3Message {
  const options = message.providerOptions ? { providerOptions: message.providerOptions } : {};
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content, ...options };
    case 'user':
      return { role: 'user', content: userParts(message.content), ...options };
    case 'assistant':
      return { role: 'assistant', content: assistantParts(message.content), ...options };
    case 'tool':
      return {
        role: 'tool',
        content: message.content.flatMap((part) => (part.type === 'tool-result' ? [toolResult(part)] : [])),
        ...options,
      };
  }
}

function userParts(content: UserContent): Extract<LanguageModelV3Message, { role: 'user' }>['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: Extract<LanguageModelV3Message, { role: 'user' }>['content'] = [];
  for (const part of content) {
    const options = part.providerOptions ? { providerOptions: part.providerOptions } : {};
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ type: 'text', text: part.text, ...options });
    } else if (part.type === 'image') {
      parts.push({
        type: 'file',
        data: dataOf(part.image),
        mediaType: part.mediaType ?? 'image/*',
        ...options,
      });
    } else parts.push(filePart(part));
  }
  return parts;
}

function assistantParts(
  content: AssistantContent,
): Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  for (const part of content) {
    // An approval request is the AI SDK's own bookkeeping, never sent to a provider.
    if (part.type === 'tool-approval-request') continue;
    const options = part.providerOptions ? { providerOptions: part.providerOptions } : {};
    switch (part.type) {
      case 'text':
        if (part.text !== '' || part.providerOptions)
          parts.push({ type: 'text', text: part.text, ...options });
        break;
      case 'reasoning':
        parts.push({ type: 'reasoning', text: part.text, ...options });
        break;
      case 'tool-call':
        parts.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
          ...options,
        });
        break;
      case 'tool-result':
        parts.push(toolResult(part));
        break;
      case 'file':
        parts.push(filePart(part));
        break;
    }
  }
  return parts;
}

function filePart(part: FilePart): LanguageModelV3FilePart {
  return {
    type: 'file',
    data: dataOf(part.data),
    mediaType: part.mediaType,
    ...(part.filename ? { filename: part.filename } : {}),
    ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
  };
}

function toolResult(part: ToolResultPart): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: outputOf(part.output),
    ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
  };
}

/** The hub stores text, JSON and refusals; a `content` result's media becomes data parts, as in the SDK. */
function outputOf(output: ToolResultPart['output']): LanguageModelV3ToolResultOutput {
  if (output.type !== 'content') return output as LanguageModelV3ToolResultOutput;
  return {
    type: 'content',
    value: output.value.map((item) =>
      item.type === 'media'
        ? item.mediaType.startsWith('image/')
          ? { type: 'image-data' as const, data: item.data, mediaType: item.mediaType }
          : { type: 'file-data' as const, data: item.data, mediaType: item.mediaType }
        : item,
    ),
  } as LanguageModelV3ToolResultOutput;
}

/**
 * Bytes, base64 and URLs pass as they are. The hub's own messages hold bytes only in the image
 * parts it reads from its file store at prompt time; a stored message carries no bytes at all.
 */
function dataOf(data: unknown): LanguageModelV3FilePart['data'] {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data as LanguageModelV3FilePart['data'];
}
