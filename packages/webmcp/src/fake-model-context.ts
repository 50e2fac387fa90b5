import type { LegacyModelContextLike, ModelContextLike, WebMcpTool } from './model-context.js';

/** Rejections the way the platform makes them (DOMException names from the WebMCP draft). */
function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A deterministic stand-in for `document.modelContext` (current API): async `registerTool`, removal by
 * aborting the registration signal, duplicate/name checks, and scripted refusals per tool name.
 * Injected into the adapter — never installed on a global.
 */
export class FakeModelContext implements ModelContextLike {
  readonly tools = new Map<string, WebMcpTool>();
  readonly registrations: { name: string; optionKeys: string[] }[] = [];
  /** Tool name → the DOMException name `registerTool` rejects with (e.g. `NotAllowedError`). */
  readonly refuse = new Map<string, string>();

  async registerTool(tool: WebMcpTool, options: { signal?: AbortSignal } = {}): Promise<undefined> {
    await Promise.resolve();
    this.registrations.push({ name: tool.name, optionKeys: Object.keys(options) });
    const signal = options.signal;
    if (signal?.aborted) throw signal.reason;
    const refusal = this.refuse.get(tool.name);
    if (refusal) throw domError(refusal, `Registering ${tool.name} is not allowed.`);
    if (!NAME.test(tool.name) || !tool.description) throw domError('InvalidStateError', 'Bad tool.');
    if (this.tools.has(tool.name)) throw domError('InvalidStateError', `Duplicate tool ${tool.name}.`);
    this.tools.set(tool.name, tool);
    signal?.addEventListener('abort', () => {
      if (this.tools.get(tool.name) === tool) this.tools.delete(tool.name);
    });
    return undefined;
  }

  /** The agent side: call a registered tool as the browser would, `(input, { signal })`. */
  invoke(name: string, input: unknown, signal: AbortSignal = new AbortController().signal): Promise<unknown> {
    const tool = this.tools.get(name);
    if (!tool) return Promise.reject(domError('NotFoundError', `No tool ${name}.`));
    return tool.execute(input, { signal });
  }
}

/** An older `navigator.modelContext`: synchronous `registerTool`, `unregisterTool(name)`. */
export class FakeLegacyModelContext implements LegacyModelContextLike {
  readonly tools = new Map<string, WebMcpTool>();
  readonly unregistered: string[] = [];

  registerTool(tool: WebMcpTool): void {
    if (this.tools.has(tool.name)) throw domError('InvalidStateError', `Duplicate tool ${tool.name}.`);
    this.tools.set(tool.name, tool);
  }

  unregisterTool(name: string): void {
    this.unregistered.push(name);
    if (!this.tools.delete(name)) throw domError('NotFoundError', `No tool ${name}.`);
  }

  invoke(name: string, input: unknown, signal: AbortSignal = new AbortController().signal): Promise<unknown> {
    const tool = this.tools.get(name);
    if (!tool) return Promise.reject(domError('NotFoundError', `No tool ${name}.`));
    return tool.execute(input, { signal });
  }
}
