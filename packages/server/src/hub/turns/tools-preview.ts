import type { PreviewTool, ToolsPreviewResult } from '@diosc/protocol';
import { INTENT_TOOL_PREFIX } from '@diosc/protocol';
import type { AssistantConfig } from '../assistants/assistant-config.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { BUILT_IN_BROWSER_TOOLS } from './built-in-tools.js';
import { offeredTools } from './offered-tools.js';

/**
 * The tool list the model would be offered on a page that registers `pageTools` (default: every
 * built-in and declared tool), built by the turn runner's own `offeredTools` so the two cannot
 * differ — and, for the owner, what was left out and why.
 */
export function previewTools(
  config: AssistantConfig,
  serverTools: ServerTool[],
  pageTools?: readonly string[],
): Pick<ToolsPreviewResult, 'tools' | 'notOffered'> {
  const handlers = pageTools ?? [
    ...BUILT_IN_BROWSER_TOOLS.map((tool) => tool.name),
    ...config.browserTools.map((tool) => tool.name),
  ];
  const offered = offeredTools(config, { tools: [...handlers], intents: [] }, serverTools);
  const tools: PreviewTool[] = [...offered.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    kind: tool.kind,
    severity: tool.severity ?? null,
  }));

  const notOffered: ToolsPreviewResult['notOffered'] = [];
  const has = new Set(handlers);
  const why = (name: string, reason: string) => notOffered.push({ name, reason });
  for (const builtIn of BUILT_IN_BROWSER_TOOLS) {
    if (!has.has(builtIn.name)) why(builtIn.name, 'The page registers no handler for this built-in tool.');
    else if (builtIn.name === 'navigate' && config.sitemap.length === 0)
      why(builtIn.name, 'navigate is offered only when the assistant has Sitemap routes.');
  }
  for (const declared of config.browserTools) {
    const entry = offered.get(declared.name);
    if (!has.has(declared.name)) why(declared.name, 'The page registers no handler for this tool.');
    else if (entry?.kind !== 'browser' || entry.description !== declared.description)
      why(declared.name, 'A built-in tool already has this name.');
  }
  for (const tool of serverTools) {
    const entry = offered.get(tool.name);
    if (tool.name.startsWith(INTENT_TOOL_PREFIX))
      why(
        tool.name,
        `Server tools named ${INTENT_TOOL_PREFIX}… are never offered (the page's intents use that prefix).`,
      );
    else if (!entry) why(tool.name, 'Its input schema does not compile.');
    else if (entry.server !== tool) why(tool.name, 'A browser tool already has this name.');
  }
  return { tools, notOffered };
}
