import {
  type ApprovalSeverity,
  INTENT_TOOL_PREFIX,
  intentToolName,
  type PageRegistry,
} from '@diosc/protocol';
import { compileForeignSchema } from '@diosc/protocol/validators';
import type { AssistantConfig } from '../assistants/assistant-config.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { BUILT_IN_BROWSER_TOOLS } from './built-in-tools.js';

/** One tool as this step offers it to the model, with where it runs and how it is checked. */
export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  kind: 'server' | 'browser' | 'intent';
  /** The browser tool's name on the page (raw tool name, or the intent's name). */
  pageName?: string;
  severity?: ApprovalSeverity;
  server?: ServerTool;
  check(args: unknown): string | undefined;
}

/**
 * The tools of one model step, built fresh from the turn's current registry: built-ins and declared
 * browser tools only when the page has their handler, the page's intents as `browser_<name>`, and
 * the assistant's server tools. A name offered twice keeps its first entry (server tools cannot
 * shadow page tools, and an intent cannot shadow either).
 */
export function offeredTools(
  assistant: AssistantConfig,
  registry: PageRegistry,
  serverTools: ServerTool[],
): Map<string, OfferedTool> {
  const offered = new Map<string, OfferedTool>();
  const add = (tool: Omit<OfferedTool, 'check'>) => {
    if (offered.has(tool.name)) return;
    try {
      offered.set(tool.name, { ...tool, check: compileForeignSchema(tool.inputSchema) });
    } catch {
      // A schema refused by the bounded compile is not offered; the page or server named something
      // broken or too costly to check (pages are refused earlier, at the request).
    }
  };
  const handlers = new Set(registry.tools);
  for (const builtIn of BUILT_IN_BROWSER_TOOLS) {
    if (!handlers.has(builtIn.name)) continue;
    if (builtIn.name === 'navigate' && assistant.sitemap.length === 0) continue;
    add({ ...builtIn, kind: 'browser', pageName: builtIn.name });
  }
  for (const declared of assistant.browserTools) {
    if (!handlers.has(declared.name)) continue;
    add({ ...declared, kind: 'browser', pageName: declared.name });
  }
  for (const intent of registry.intents) {
    add({
      name: intentToolName(intent.name),
      description: intent.description,
      inputSchema: intent.schema,
      kind: 'intent',
      pageName: intent.name,
      ...(intent.approval ? { severity: intent.approval.severity } : {}),
    });
  }
  for (const tool of serverTools) {
    if (tool.name.startsWith(INTENT_TOOL_PREFIX)) continue;
    const severity = assistant.serverTools.consensus[tool.name];
    add({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      kind: 'server',
      server: tool,
      ...(severity ? { severity } : {}),
    });
  }
  return offered;
}
