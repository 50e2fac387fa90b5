import { deepFreeze } from '../json/deep-freeze.js';
import { findOperation, OPERATIONS, type OperationDefinition, type OperationHints } from './operations.js';
import type { FunctionName } from './schemas.js';

/** MCP's tool annotations, as the MCP specification names them. */
export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The serializable form of one operation: plain JSON, safe to send to a browser or an MCP client.
 * It carries no credential, URL or account data — only the contract.
 */
export interface ToolDescriptor {
  name: FunctionName;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: McpToolAnnotations;
  hints: OperationHints;
}

/** A deep copy of plain JSON (the catalog's schemas are nothing else). */
const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function toDescriptor(operation: OperationDefinition): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    name: operation.name,
    title: operation.title,
    description: operation.description,
    inputSchema: jsonCopy(operation.inputSchema),
    outputSchema: jsonCopy(operation.outputSchema),
    annotations: {
      title: operation.title,
      readOnlyHint: operation.hints.readOnly,
      destructiveHint: operation.hints.destructive,
      idempotentHint: operation.hints.idempotent,
      openWorldHint: false,
    },
    hints: { ...operation.hints },
  };
  return deepFreeze(descriptor);
}

const DESCRIPTORS: readonly ToolDescriptor[] = deepFreeze(OPERATIONS.map(toDescriptor));

/** Every descriptor of the catalog, in catalog order. Frozen; built once per process. */
export function catalogDescriptors(): readonly ToolDescriptor[] {
  return DESCRIPTORS;
}

/** The descriptors of the named functions, in catalog order. */
export function descriptorsFor(names: Iterable<string>): ToolDescriptor[] {
  const wanted = new Set(names);
  return DESCRIPTORS.filter((descriptor) => wanted.has(descriptor.name));
}

export function findDescriptor(name: string): ToolDescriptor | undefined {
  return findOperation(name) ? DESCRIPTORS.find((descriptor) => descriptor.name === name) : undefined;
}
