import type { ToolDescriptor } from '@diosc/protocol';
import type { ToolExecuteCallback, WebMcpTool, WebMcpToolAnnotations } from './model-context.js';

/** The catalog's hints in WebMCP's vocabulary. Descriptions for the agent; the server decides access. */
export function annotationsFor(descriptor: ToolDescriptor): WebMcpToolAnnotations {
  return {
    readOnlyHint: descriptor.hints.readOnly,
    consequentialHint: descriptor.hints.consequential,
    untrustedContentHint: descriptor.hints.untrustedContent,
  };
}

/**
 * A WebMCP tool from a server descriptor, copied field by field: no output schema (WebMCP has none),
 * no `exposedTo`, and nothing of the descriptor that the platform does not define.
 */
export function toolFromDescriptor(descriptor: ToolDescriptor, execute: ToolExecuteCallback): WebMcpTool {
  return {
    name: descriptor.name,
    title: descriptor.title,
    description: descriptor.description,
    inputSchema: structuredClone(descriptor.inputSchema),
    annotations: annotationsFor(descriptor),
    execute,
  };
}
