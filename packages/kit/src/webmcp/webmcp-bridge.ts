import { intentToolName } from '@diosc/protocol';
import {
  type DetectedModelContext,
  detectModelContext,
  type Registration,
  registerTools,
  type WebMcpTool,
} from '@diosc/webmcp';
import { errorText } from '../runtime/browser-call.js';
import type { KitContext } from '../runtime/kit-context.js';
import { runBrowserCall } from '../runtime/run-browser-call.js';

const NO_HOOKS = { beforeRun() {}, leavingPage() {} };

function execute(kit: KitContext, kind: 'tool' | 'intent', tool: string): WebMcpTool['execute'] {
  return async (input, options) => {
    if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input)))
      return { error: 'the input must be a JSON object' };
    try {
      const outcome = await runBrowserCall(
        kit,
        {
          kind,
          tool,
          args: (input ?? {}) as Record<string, unknown>,
          interruptId: null,
          ...(options?.signal ? { signal: options.signal } : {}),
        },
        NO_HOOKS,
      );
      return 'result' in outcome ? outcome.result : { error: outcome.error };
    } catch (error) {
      return { error: errorText(error) };
    }
  };
}

/**
 * The page's tools in WebMCP's shape: the host's raw tools that the assistant declares (their
 * description and schema come from the hub; the built-ins stay with the hub), and every intent as
 * `browser_<name>`. Calls go through the same path as the hub's — an intent with `approval` opens
 * the same consensus dialog before its handler runs.
 */
function webMcpTools(
  kit: KitContext,
  declared: { name: string; description: string; inputSchema: Record<string, unknown> }[],
): WebMcpTool[] {
  const raw = declared
    .filter((each) => kit.tools.has(each.name))
    .map((each) => ({
      name: each.name,
      description: each.description,
      inputSchema: each.inputSchema,
      execute: execute(kit, 'tool', each.name),
    }));
  const intents = (kit.adapter.get()?.intents ?? []).map((intent) => ({
    name: intentToolName(intent.name),
    description: intent.description,
    inputSchema: intent.schema,
    annotations: { consequentialHint: Boolean(intent.approval) },
    execute: execute(kit, 'intent', intent.name),
  }));
  return [...raw, ...intents];
}

/**
 * `init({ webmcp: true })`: registers with `document.modelContext` through `@diosc/webmcp`'s
 * registration (no polyfill: a browser without WebMCP gets nothing), and re-registers whenever the
 * tools or intents change. Returns the function that takes every registration back.
 */
export function startWebMcpBridge(
  kit: KitContext,
  platform: DetectedModelContext | null = detectModelContext(),
): () => void {
  if (!platform || !kit.session) return () => {};
  const session = kit.session;
  let epoch = 0;
  let registration: Registration | null = null;
  let stopped = false;

  const sync = async () => {
    const mine = ++epoch;
    registration?.remove();
    registration = null;
    let declared: Parameters<typeof webMcpTools>[1] = [];
    try {
      declared = (await session.client.session()).assistant.browserTools;
    } catch {
      // No hub session: intents still work locally; raw tools need their declared descriptions.
    }
    if (stopped || mine !== epoch) return;
    const tools = webMcpTools(kit, declared);
    try {
      const installed = await registerTools(platform, tools, () => stopped || mine !== epoch);
      if (installed && !stopped && mine === epoch) registration = installed;
      else installed?.remove();
    } catch (error) {
      console.error(`[diosc] WebMCP registration failed: ${errorText(error)}`);
    }
  };

  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      void sync();
    });
  };
  kit.registryChanged.add(schedule);
  schedule();
  return () => {
    stopped = true;
    epoch++;
    kit.registryChanged.delete(schedule);
    registration?.remove();
    registration = null;
  };
}
