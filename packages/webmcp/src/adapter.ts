import { DioscError, type ErrorCode, FUNCTION_NAMES, type ToolDescriptor } from '@diosc/protocol';
import type { WebMcpAdapter, WebMcpAdapterOptions } from './adapter-types.js';
import { createExecute, type InvocationScope } from './invocation.js';
import { initialLifecycle, isLive, transition } from './lifecycle.js';
import type { LifecycleEffect, LifecycleEvent } from './lifecycle-types.js';
import { detectModelContext } from './model-context.js';
import { type Registration, RegistrationFailed, registerTools } from './registration.js';
import { defaultWindow, ENDED_MESSAGES, watchWindow } from './revocation.js';
import { toolFromDescriptor } from './tool-from-descriptor.js';
import { toolFailure } from './tool-result.js';

/** What the shell holds for one registration: the platform's handle and its callbacks' fate. */
interface Installed {
  controller: AbortController;
  /** The code its callbacks answer with once it has ended. */
  endedWith: ErrorCode;
  ended: boolean;
  registration: Registration | null;
}

const isCatalogTool = (tool: ToolDescriptor) => (FUNCTION_NAMES as readonly string[]).includes(tool.name);

/**
 * Registers the owner's browser tools with the platform's WebMCP API and keeps them tied to one
 * enabled session. The decisions are the pure `transition` of `lifecycle.ts`; this shell only
 * performs its effects (the descriptors request, registration, removal, publishing the state) and
 * feeds their results back, so nothing late can restore an old context.
 *
 * @example
 * const adapter = createWebMcpAdapter({ api, reviewer, onStateChange: render });
 * await adapter.sync(session.sessionGeneration);
 */
export function createWebMcpAdapter(options: WebMcpAdapterOptions): WebMcpAdapter {
  const platform = options.modelContext === undefined ? detectModelContext() : options.modelContext;
  const win = options.window === undefined ? defaultWindow() : options.window;
  const now = options.now ?? (() => new Date());
  const isOffline = () => win?.navigator?.onLine === false;
  let machine = initialLifecycle(platform !== null);
  let load: AbortController | null = null;
  const installed = new Map<number, Installed>();
  let unwatch = () => {};

  /** Applies one event, then performs its effects; settles when the work they started is done. */
  async function dispatch(event: LifecycleEvent<ToolDescriptor>): Promise<void> {
    const step = transition(machine, event);
    machine = step.state;
    await Promise.all(step.effects.map(perform));
  }

  async function perform(effect: LifecycleEffect<ToolDescriptor>): Promise<void> {
    switch (effect.type) {
      case 'publish':
        options.onStateChange?.(effect.state);
        return;
      case 'cancel-load':
        load?.abort();
        load = null;
        return;
      case 'load':
        return loadTools(effect.seq);
      case 'register':
        return register(effect.epoch, effect.generation, effect.tools);
      case 'end':
        return end(effect.epoch, effect.code);
      case 'unwatch':
        unwatch();
        return;
    }
  }

  async function loadTools(seq: number): Promise<void> {
    load?.abort();
    const request = new AbortController();
    load = request;
    let event: LifecycleEvent<ToolDescriptor>;
    try {
      const view = await options.api.descriptors(request.signal);
      // Only catalog operations: the adapter knows which of them need review, and nothing else is a tool.
      const tools = view.tools.filter(isCatalogTool);
      event = {
        type: 'loaded',
        seq,
        tools,
        generation: view.generation,
        sessionGeneration: view.sessionGeneration,
      };
    } catch (error) {
      const code = DioscError.isInstance(error) ? error.code : 'internal';
      const reason = error instanceof Error ? error.message : 'The tool descriptors could not be loaded.';
      event = { type: 'load-failed', seq, offline: isOffline(), code, reason };
    }
    if (load === request) load = null;
    await dispatch(event);
  }

  async function register(epoch: number, generation: number, descriptors: readonly ToolDescriptor[]) {
    const own: Installed = {
      controller: new AbortController(),
      endedWith: 'not_enabled',
      ended: false,
      registration: null,
    };
    installed.set(epoch, own);
    const scope: InvocationScope = {
      api: options.api,
      reviewer: options.reviewer,
      generation,
      revoked: own.controller.signal,
      isLive: () => isLive(machine, epoch),
      refusal: () => toolFailure(own.endedWith, ENDED_MESSAGES[own.endedWith]),
      onServerRefusal: (error) =>
        void dispatch(
          error.code === 'source_revoked'
            ? { type: 'resync', epoch, offline: isOffline() }
            : { type: 'refused', epoch, code: error.code, reason: error.message },
        ),
      report: (entry) => {
        // Ended with its session: whatever this call saw belongs to no session the page still has.
        if (own.ended && own.endedWith === 'session_expired') return;
        options.onActivity?.({ ...entry, time: now().toISOString() });
      },
    };
    const tools = descriptors.map((descriptor) =>
      toolFromDescriptor(descriptor, createExecute(descriptor.name, scope)),
    );
    let event: LifecycleEvent<ToolDescriptor>;
    try {
      const registration = await registerTools(
        platform!,
        tools,
        () => machine.disposed || machine.epoch !== epoch,
      );
      // Cancelled part-way: it has removed whatever it installed.
      if (!registration) return;
      if (own.ended) registration.remove();
      else own.registration = registration;
      event = { type: 'registered', epoch, names: registration.names };
    } catch (error) {
      const reason = RegistrationFailed.isInstance(error) ? error.message : 'Registering the tools failed.';
      event = { type: 'registration-failed', epoch, reason };
    }
    await dispatch(event);
  }

  function end(epoch: number, code: ErrorCode): void {
    const own = installed.get(epoch);
    if (!own) return;
    installed.delete(epoch);
    own.endedWith = code;
    own.ended = true;
    own.controller.abort(new DOMException('The Diosc browser tools were revoked.', 'AbortError'));
    own.registration?.remove();
  }

  if (platform && win) {
    unwatch = watchWindow(win, {
      offline: () => void dispatch({ type: 'revoke', reason: 'offline' }),
      online: () => {
        if (options.resumeWhenOnline !== false) void dispatch({ type: 'online', offline: isOffline() });
      },
      pagehide: () => void dispatch({ type: 'revoke', reason: 'teardown' }),
      pageshow: (event) =>
        void dispatch({
          type: 'pageshow',
          persisted: (event as Partial<PageTransitionEvent>).persisted === true,
          offline: isOffline(),
        }),
    });
  }

  return {
    get state() {
      return machine.view;
    },
    async sync(sessionGeneration) {
      await dispatch({ type: 'sync', sessionGeneration, offline: isOffline() });
      return machine.view;
    },
    disable: () => void dispatch({ type: 'revoke', reason: 'disabled' }),
    revoke: (reason) => void dispatch({ type: 'revoke', reason }),
    dispose: () => void dispatch({ type: 'dispose' }),
  };
}
