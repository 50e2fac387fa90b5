import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import {
  createScriptedModel,
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedStep,
} from './scripted-model.js';
import { summarizeToolResults } from './summarize-result.js';

export const DEMO_MODEL_ID = 'scripted-demo';
export const DEMO_MODEL_LABEL = 'scripted demo model (not an AI)';

const HOW_TO_CONFIGURE =
  'To use a real model, set ANTHROPIC_API_KEY or OPENAI_API_KEY (or DIOSC_OLLAMA_URL for a local ' +
  'Ollama server) in the server environment and restart, or give the assistant a model of its own.';

const INTRO = 'I am the scripted demo model, not an AI: I only follow a few fixed commands.';

/** The demo model `npm start` runs when no provider is configured. */
export function createDemoModel(): ScriptedModel {
  return createScriptedModel(demoScript, { modelId: DEMO_MODEL_ID });
}

/**
 * Understands "go to <path>" / "open <path>", "read the page", "call <tool> [json args]" and "help"
 * in the last user message; after a tool result it says in one sentence what came back. Anything
 * else gets a plain statement of what it is and how to configure a real model.
 */
export function demoScript(call: ScriptedCall): ScriptedStep {
  const last = call.prompt.at(-1);
  if (last?.role === 'tool') return { text: summarizeToolResults(last.content) };
  const offered = new Set(call.tools);
  // The hub may put the page snapshot beside the visitor's words as separate text parts, so a
  // command must be a whole text part on its own; page text is never read as a command.
  for (const text of lastUserTexts(call.prompt)) {
    const step = command(text.trim(), offered);
    if (step) return step;
  }
  return { text: `${INTRO} Type "help" to see them. ${HOW_TO_CONFIGURE}` };
}

function command(text: string, offered: Set<string>): ScriptedStep | undefined {
  const go = /^(?:go to|open|navigate to)\s+(\S+?)[.!]?$/i.exec(text);
  if (go?.[1]) {
    const path = go[1];
    if (!offered.has('navigate')) return { text: 'This page offers no navigate tool, so I cannot move it.' };
    return { text: `Navigating to ${path}.`, toolCalls: [{ toolName: 'navigate', input: { path } }] };
  }
  if (/^read (?:the |this )?page[.!]?$/i.test(text)) {
    if (!offered.has('read_page'))
      return { text: 'This page offers no read_page tool, so I cannot read it.' };
    return { text: 'Reading the page.', toolCalls: [{ toolName: 'read_page', input: {} }] };
  }
  const invoke = /^call\s+([A-Za-z0-9_.-]+)(?:\s+([\s\S]+))?$/i.exec(text);
  if (invoke?.[1]) return callTool(invoke[1], invoke[2], offered);
  if (/^(?:help|\?)[.!?]?$/i.test(text)) return { text: help(offered) };
  return undefined;
}

function callTool(name: string, rawArgs: string | undefined, offered: Set<string>): ScriptedStep {
  if (!offered.has(name)) {
    return { text: `There is no tool named ${name} here. ${toolList(offered)}` };
  }
  let input: unknown = {};
  if (rawArgs !== undefined) {
    try {
      input = JSON.parse(rawArgs);
    } catch {
      return { text: `The arguments for ${name} are not valid JSON; write them as a JSON object.` };
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { text: `The arguments for ${name} must be a JSON object, like {"id": 1}.` };
  }
  return {
    text: `Calling ${name}.`,
    toolCalls: [{ toolName: name, input: input as Record<string, unknown> }],
  };
}

function help(offered: Set<string>): string {
  return [
    INTRO,
    'Commands: "go to /some/path" (or "open /some/path"), "read the page",',
    '"call <tool> {json arguments}", and "help".',
    toolList(offered),
    HOW_TO_CONFIGURE,
  ].join(' ');
}

function toolList(offered: Set<string>): string {
  return offered.size === 0
    ? 'No tools are offered right now.'
    : `Tools offered: ${[...offered].join(', ')}.`;
}

/** The text parts of the newest user message, in order. */
function lastUserTexts(prompt: LanguageModelV3Prompt): string[] {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index];
    if (message?.role !== 'user') continue;
    return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  }
  return [];
}
