import type { LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { ScriptedCall } from './scripted-model.js';

/** One tool result the model was shown, reduced to what a script decides on. */
export interface ToolOutcome {
  toolName: string;
  /** False for an error result (`error-text`, `error-json`, `execution-denied`). */
  ok: boolean;
  /** The JSON or text value of a successful result. */
  value: unknown;
  /** The error text of a failed one. */
  error?: string;
}

/** The page snapshot the kit attached to the visitor's message, as the hub rendered it. */
export interface SnapshotSeen {
  url?: string;
  title?: string;
  description?: string;
  content?: string;
  data?: unknown;
}

/** What a scripted model needs to take the next step of a turn. */
export interface TurnSoFar {
  /** The visitor's words in the newest user message (the snapshot part left out), trimmed. */
  text: string;
  /** The snapshot sent with that message, if any. */
  page?: SnapshotSeen;
  /** This turn's tool results so far (after the newest user message), oldest first. */
  results: ToolOutcome[];
  /** Every tool call of the conversation so far, earlier turns included, oldest first. */
  calls: { toolName: string; input: unknown }[];
  /** The tools offered on this step. */
  offered: ReadonlySet<string>;
}

const FENCE_START = '<page-snapshot';

/**
 * Reads a model call the way a multi-step script needs it: the visitor's words, the page they are
 * on, and what the tools of this turn returned. The hub puts the snapshot beside the words as its
 * own fenced text part; a script reads it as data and never takes page text for a command.
 *
 * @example
 * const turn = readTurn(call);
 * if (turn.results.length === 0) return { toolCalls: [{ toolName: 'read_page', input: {} }] };
 */
export function readTurn(call: ScriptedCall): TurnSoFar {
  const prompt = call.prompt;
  const lastUser = findLastIndex(prompt, (message) => message.role === 'user');
  const words: string[] = [];
  let page: SnapshotSeen | undefined;
  const user = prompt[lastUser];
  if (user?.role === 'user') {
    for (const part of user.content) {
      if (part.type !== 'text') continue;
      if (part.text.startsWith(FENCE_START)) page = parseSnapshot(part.text);
      else words.push(part.text);
    }
  }
  const results: ToolOutcome[] = [];
  const calls: TurnSoFar['calls'] = [];
  prompt.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content)
        if (part.type === 'tool-call') calls.push({ toolName: part.toolName, input: part.input });
    }
    if (message.role === 'tool' && index > lastUser) {
      for (const part of message.content)
        if (part.type === 'tool-result') results.push(outcome(part.toolName, part.output));
    }
  });
  return { text: words.join(' ').trim(), page, results, calls, offered: new Set(call.tools) };
}

function outcome(toolName: string, output: LanguageModelV3ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case 'json':
    case 'text':
      return { toolName, ok: true, value: output.value };
    case 'error-text':
      return { toolName, ok: false, value: undefined, error: output.value };
    case 'error-json':
      return { toolName, ok: false, value: undefined, error: JSON.stringify(output.value) };
    case 'execution-denied':
      return { toolName, ok: false, value: undefined, error: output.reason ?? 'denied' };
    default:
      return { toolName, ok: true, value: undefined };
  }
}

/** The fields of `renderSnapshot`'s text: `URL:`, `Title:`, `Description:`, `Content:` …, `Data:` last. */
function parseSnapshot(text: string): SnapshotSeen {
  const lines = text.split('\n').slice(1, -1);
  const seen: SnapshotSeen = {};
  const dataLine = lines.at(-1)?.startsWith('Data: ') ? lines.pop() : undefined;
  if (dataLine) {
    try {
      seen.data = JSON.parse(dataLine.slice('Data: '.length));
    } catch {
      // Not JSON: the script sees no data rather than a wrong value.
    }
  }
  const contentAt = lines.indexOf('Content:');
  if (contentAt !== -1) seen.content = lines.splice(contentAt).slice(1).join('\n');
  for (const line of lines) {
    if (line.startsWith('URL: ')) seen.url = line.slice(5);
    else if (line.startsWith('Title: ')) seen.title = line.slice(7);
    else if (line.startsWith('Description: ')) seen.description = line.slice(13);
  }
  return seen;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (test(items[index]!)) return index;
  return -1;
}
