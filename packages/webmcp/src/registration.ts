import { LocalError } from '@diosc/protocol';
import type { DetectedModelContext, WebMcpTool } from './model-context.js';

/** What one successful registration installed, and how to take exactly that back. */
export interface Registration {
  readonly names: readonly string[];
  /** Removes this registration's tools — and only them. Idempotent. */
  remove(): void;
}

/**
 * A registration that failed part-way (local error `registration_failed`). Everything it had
 * installed is already removed. Check with `RegistrationFailed.isInstance`.
 */
export class RegistrationFailed extends LocalError {
  readonly toolName: string;

  constructor(toolName: string, cause: unknown) {
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super('registration_failed', `Registering ${toolName} failed (${detail}).`, { cause });
    this.name = 'RegistrationFailed';
    this.toolName = toolName;
  }

  static override isInstance(value: unknown): value is RegistrationFailed {
    return LocalError.hasCode(value, 'registration_failed');
  }
}

/**
 * Registers `tools` one by one. The current API gets one registration-scoped AbortController (aborting
 * it is how the platform unregisters); the legacy API gets `unregisterTool` for our own names only.
 * `cancelled()` is checked after every await so a registration overtaken by a revocation removes
 * itself instead of landing late. Rejects with `RegistrationFailed` after cleaning up.
 */
export async function registerTools(
  platform: DetectedModelContext,
  tools: readonly WebMcpTool[],
  cancelled: () => boolean,
): Promise<Registration | null> {
  const installed: string[] = [];
  let removed = false;
  const controller = new AbortController();
  const remove = () => {
    if (removed) return;
    removed = true;
    if (platform.api === 'current') {
      controller.abort(new DOMException('The Diosc browser tools were revoked.', 'AbortError'));
      return;
    }
    for (const name of installed) {
      try {
        platform.context.unregisterTool(name);
      } catch {
        // Already gone (the page or another script removed it): nothing of ours is left either way.
      }
    }
  };
  for (const tool of tools) {
    if (cancelled()) break;
    try {
      if (platform.api === 'current') {
        await platform.context.registerTool(tool, { signal: controller.signal });
      } else {
        await platform.context.registerTool(tool);
      }
      installed.push(tool.name);
    } catch (error) {
      remove();
      if (cancelled()) return null;
      throw new RegistrationFailed(tool.name, error);
    }
  }
  if (cancelled()) {
    remove();
    return null;
  }
  return { names: Object.freeze([...installed]), remove };
}
