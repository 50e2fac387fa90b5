import { DioscError, type ErrorCode, FUNCTION_NAMES } from '@diosc/protocol';
import type { AdapterState, RevokeReason, WebMcpAdapter, WebMcpAdapterOptions } from './adapter-types.js';
import { createExecute, type InvocationScope } from './invocation.js';
import { detectModelContext } from './model-context.js';
import { type Registration, RegistrationFailed, registerTools } from './registration.js';
import { defaultWindow, ENDED_MESSAGES, REVOKED, SESSION_CODES, watchWindow } from './revocation.js';
import { toolFromDescriptor } from './tool-from-descriptor.js';
import { toolFailure } from './tool-result.js';

/** The registration the page currently exposes. Callbacks compare their epoch with `live.epoch`. */
interface Live {
  epoch: number;
  /** Set when this registration ends: the code its retained callbacks answer with from then on. */
  end(code: ErrorCode): void;
  registration: Registration;
  controller: AbortController;
  generation: number;
  sessionGeneration: number;
}

/**
 * Registers the owner's browser tools with the platform's WebMCP API and keeps them tied to one
 * enabled session: every revocation bumps `epoch`, which every retained callback and every pending
 * sync compares after each await, so nothing late can restore an old context.
 *
 * @example
 * const adapter = createWebMcpAdapter({ api, reviewer, onStateChange: render });
 * await adapter.sync(session.sessionGeneration);
 */
export function createWebMcpAdapter(options: WebMcpAdapterOptions): WebMcpAdapter {
  const platform = options.modelContext === undefined ? detectModelContext() : options.modelContext;
  const win = options.window === undefined ? defaultWindow() : options.window;
  const now = options.now ?? (() => new Date());
  let state: AdapterState = Object.freeze({ status: platform ? 'disabled' : 'unsupported', tools: [] });
  let epoch = 0;
  let syncSeq = 0;
  let live: Live | null = null;
  let sessionGeneration: number | null = null;
  let disposed = false;
  const isOffline = () => win?.navigator?.onLine === false;
  /** Aborts the descriptors request of the sync in progress when it is revoked or overtaken. */
  let pendingSync: AbortController | null = null;

  const setState = (next: AdapterState) => {
    state = Object.freeze({ ...next, tools: Object.freeze([...next.tools]) as string[] });
    options.onStateChange?.(state);
  };

  const teardown = (code: ErrorCode) => {
    epoch++;
    const previous = live;
    live = null;
    previous?.end(code);
    previous?.controller.abort(new DOMException('The Diosc browser tools were revoked.', 'AbortError'));
    previous?.registration.remove();
  };

  const revoke = (reason: RevokeReason, detail?: { reason?: string; code?: ErrorCode }) => {
    if (!platform) return;
    syncSeq++;
    pendingSync?.abort();
    pendingSync = null;
    teardown(detail?.code && SESSION_CODES.has(detail.code) ? 'session_expired' : REVOKED[reason].code);
    if (reason !== 'offline') sessionGeneration = null;
    const revoked = REVOKED[reason];
    setState({
      status: revoked.status,
      reason: detail?.reason ?? revoked.reason,
      code: detail?.code,
      tools: [],
    });
  };

  const scopeFor = (
    myEpoch: number,
    generation: number,
    controller: AbortController,
    ended: () => ErrorCode,
  ): InvocationScope => ({
    api: options.api,
    reviewer: options.reviewer,
    generation,
    revoked: controller.signal,
    isLive: () => !disposed && epoch === myEpoch && live?.epoch === myEpoch,
    refusal: () => toolFailure(ended(), ENDED_MESSAGES[ended()]),
    onServerRefusal: (error) => {
      if (epoch !== myEpoch) return;
      const detail = { reason: error.message, code: error.code };
      revoke(SESSION_CODES.has(error.code) ? 'session-replaced' : 'disabled', detail);
    },
    report: (entry) => options.onActivity?.({ ...entry, time: now().toISOString() }),
  });

  async function sync(expected: number): Promise<AdapterState> {
    if (!platform || disposed) return state;
    const seq = ++syncSeq;
    const startEpoch = epoch;
    sessionGeneration = expected;
    const stale = () => disposed || seq !== syncSeq || epoch !== startEpoch;
    if (isOffline()) {
      revoke('offline');
      return state;
    }
    pendingSync?.abort();
    const request = new AbortController();
    pendingSync = request;
    let view: Awaited<ReturnType<typeof options.api.descriptors>>;
    try {
      view = await options.api.descriptors(request.signal);
    } catch (error) {
      if (stale()) return state;
      if (isOffline()) {
        revoke('offline');
        return state;
      }
      const code = DioscError.isInstance(error) ? error.code : 'internal';
      const reason = error instanceof Error ? error.message : 'The tool descriptors could not be loaded.';
      teardown(SESSION_CODES.has(code) ? 'session_expired' : 'not_enabled');
      if (code === 'not_enabled') setState({ status: 'disabled', tools: [] });
      else if (SESSION_CODES.has(code)) {
        sessionGeneration = null;
        setState({ status: 'expired-session', reason, code, tools: [] });
      } else setState({ status: 'failure', reason, code, tools: [] });
      return state;
    }
    if (pendingSync === request) pendingSync = null;
    if (stale()) return state;
    if (view.sessionGeneration !== expected) {
      revoke('session-replaced');
      return state;
    }
    // Only catalog operations: the adapter knows which of them need review, and nothing else is a tool.
    const descriptors = view.tools.filter((tool) =>
      (FUNCTION_NAMES as readonly string[]).includes(tool.name),
    );
    const names = descriptors.map((tool) => tool.name);
    if (
      live &&
      live.generation === view.generation &&
      live.sessionGeneration === expected &&
      live.registration.names.join() === names.join()
    ) {
      return state;
    }
    teardown('generation_changed');
    const myEpoch = epoch;
    const controller = new AbortController();
    let endedWith: ErrorCode = 'not_enabled';
    const scope = scopeFor(myEpoch, view.generation, controller, () => endedWith);
    const tools = descriptors.map((descriptor) =>
      toolFromDescriptor(descriptor, createExecute(descriptor.name, scope)),
    );
    try {
      const registration = await registerTools(platform, tools, () => disposed || epoch !== myEpoch);
      if (!registration || disposed || epoch !== myEpoch) return state;
      live = {
        epoch: myEpoch,
        end: (code) => {
          endedWith = code;
        },
        registration,
        controller,
        generation: view.generation,
        sessionGeneration: expected,
      };
      setState({ status: 'registered', tools: [...registration.names], generation: view.generation });
    } catch (error) {
      if (disposed || epoch !== myEpoch) return state;
      const reason = error instanceof RegistrationFailed ? error.message : 'Registering the tools failed.';
      setState({ status: 'failure', reason, code: 'registration_failed', tools: [] });
    }
    return state;
  }

  const unwatch =
    platform && win
      ? watchWindow(win, {
          offline: () => revoke('offline'),
          online: () => {
            if (state.status !== 'offline' || sessionGeneration === null) return;
            if (options.resumeWhenOnline !== false) void sync(sessionGeneration);
          },
          pagehide: () => revoke('teardown'),
        })
      : () => {};

  return {
    get state() {
      return state;
    },
    sync,
    disable: () => revoke('disabled'),
    revoke: (reason) => revoke(reason),
    dispose() {
      if (disposed) return;
      revoke('teardown');
      disposed = true;
      unwatch();
    },
  };
}
