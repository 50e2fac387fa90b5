import { catalogDescriptors, type McpToolAnnotations, type ToolDescriptor } from '@diosc/protocol';

/**
 * One catalog descriptor in MCP's `Tool` shape. The values are the catalog's own objects, never
 * rewritten: what `tools/list` sends is byte-for-byte what the shared catalog says. The catalog's
 * `hints` stay behind because MCP expresses them as `annotations`.
 */
export interface WireTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
  readonly annotations: Readonly<McpToolAnnotations>;
}

export function toWireTool(descriptor: ToolDescriptor): WireTool {
  return Object.freeze({
    name: descriptor.name,
    title: descriptor.title,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
    outputSchema: descriptor.outputSchema,
    annotations: descriptor.annotations,
  });
}

/**
 * The catalog's wire form, built once per app: each tool object and each distinct `tools/list`
 * answer is made once and reused, so a request only picks from it.
 */
export function createWireCatalog() {
  const tools = new Map<string, WireTool>(
    catalogDescriptors().map((descriptor) => [descriptor.name, toWireTool(descriptor)]),
  );
  // At most 2^4 distinct lists exist (collections_list plus any subset of the four functions).
  const lists = new Map<string, readonly WireTool[]>();
  return {
    find(name: string): WireTool | undefined {
      return tools.get(name);
    },
    /** The tools of the named functions, in catalog order (`exposedFunctions` already is). */
    list(functions: readonly string[]): readonly WireTool[] {
      const key = functions.join(',');
      let list = lists.get(key);
      if (!list) {
        list = Object.freeze(functions.flatMap((name) => tools.get(name) ?? []));
        lists.set(key, list);
      }
      return list;
    },
  };
}

export type WireCatalog = ReturnType<typeof createWireCatalog>;
