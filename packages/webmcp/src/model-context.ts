/**
 * The slice of the WebMCP platform API this adapter uses (W3C WebML CG draft, 2026), typed here so
 * no global declaration or polyfill is needed. See `/work/shared/webmcp.md` and docs/api/webmcp.md.
 */

/** Annotations the platform understands. Descriptions of behaviour, never grants. */
export interface WebMcpToolAnnotations {
  readOnlyHint?: boolean;
  consequentialHint?: boolean;
  untrustedContentHint?: boolean;
}

export interface ToolExecuteOptions {
  signal?: AbortSignal;
}

/** The platform calls `execute(input, { signal })`; the resolved value is serialized by the browser. */
export type ToolExecuteCallback = (input: unknown, options?: ToolExecuteOptions) => Promise<unknown>;

/** `ModelContextTool`: what `registerTool` receives. */
export interface WebMcpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  execute: ToolExecuteCallback;
  annotations?: WebMcpToolAnnotations;
}

/** Current API (`document.modelContext`): async registration, unregistration by aborting `signal`. */
export interface ModelContextLike {
  registerTool(tool: WebMcpTool, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Older implementations (`navigator.modelContext`): synchronous `registerTool`, `unregisterTool(name)`. */
export interface LegacyModelContextLike {
  registerTool(tool: WebMcpTool): unknown;
  unregisterTool(name: string): unknown;
}

/** Which platform branch the adapter drives. Explicit, so a fake never has to be sniffed. */
export type DetectedModelContext =
  | { api: 'current'; context: ModelContextLike }
  | { api: 'legacy'; context: LegacyModelContextLike };

function isFunction(value: unknown): value is (...args: unknown[]) => unknown {
  return typeof value === 'function';
}

/**
 * Finds the platform's model context: `document.modelContext.registerTool` first, then the explicitly
 * supported legacy `navigator.modelContext` (needs both `registerTool` and `unregisterTool`). Returns
 * `null` when neither exists — the adapter then reports `unsupported`; nothing is installed globally.
 */
export function detectModelContext(
  doc: unknown = globalThis.document,
  nav: unknown = globalThis.navigator,
): DetectedModelContext | null {
  const current = (doc as { modelContext?: unknown } | undefined)?.modelContext as
    | Partial<ModelContextLike>
    | undefined;
  if (current && isFunction(current.registerTool)) {
    return { api: 'current', context: current as ModelContextLike };
  }
  const legacy = (nav as { modelContext?: unknown } | undefined)?.modelContext as
    | Partial<LegacyModelContextLike>
    | undefined;
  if (legacy && isFunction(legacy.registerTool) && isFunction(legacy.unregisterTool)) {
    return { api: 'legacy', context: legacy as LegacyModelContextLike };
  }
  return null;
}
