// Types of builds.mjs, for the TypeScript tests that call it.
export const STAMP: string;
export function buildInputs(name: string, root?: string): string[];
export function inputsDigest(inputs: readonly string[], root?: string): string;
export function buildableWorkspaces(root?: string): string[];
export function isBuildFresh(name: string, root?: string): boolean;
export function ensureBuilt(
  names: readonly string[],
  options?: { root?: string; log?: (line: string) => void },
): void;
export function mustBeBuilt(
  names: readonly string[],
  options?: { root?: string; log?: (line: string) => void },
): void;
