import { intentToolName } from '@diosc/protocol';
import {
  type DetectedModelContext,
  detectModelContext,
  initialLifecycle,
  isLive,
  type LifecycleEffect,
  type LifecycleEvent,
  type Registration,
  RegistrationFailed,
  registerTools,
  transition,
  type WebMcpTool,
} from '@diosc/webmcp';
import { type BrowserCall, errorText, type Outcome } from '../browser-calls/browser-call.js';
import type { KitContext } from '../kit-context.js';

type Declared = { name: string; description: string; inputSchema: Record<string, unknown> };

/** A tool the registration will hold; its `execute` is bound to the registration's epoch later. */
interface Planned extends Omit<WebMcpTool, 'execute'> {
  kind: 'tool' | 'intent';
  tool: string;
}

/** The kit's registrations belong to the page, not to a server session: one constant generation. */
const PAGE_SESSION = 0;

/**
 * `init({ webmcp: true })`: registers the host's declared raw tools (their description and schema
 * come from the hub; the built-ins stay with the hub) and every intent as `browser_<name>` with
 * `document.modelContext`. The decisions are `@diosc/webmcp`'s pure lifecycle (`transition`): every
 * change of tools or intents is a new generation that replaces the registration, a page hidden in
 * the back/forward cache takes its tools back and restores them, and a callback of a replaced
 * registration refuses instead of running. Calls go through `run`, the same path as the hub's — an
 * intent with `approval` opens the same consensus dialog first. No polyfill: without WebMCP nothing
 * happens. Loaded only when a page asks for it (`load-bridge.ts`), so other pages do not pay for it.
 * Returns the function that takes every registration back.
 */
export function startWebMcpBridge(
  kit: KitContext,
  run: (call: BrowserCall) => Promise<Outcome>,
  platform: DetectedModelContext | null = detectModelContext(),
): () => void {
  if (!platform || !kit.session) return () => {};
  const session = kit.session;
  let machine = initialLifecycle(true);
  let generation = 0;
  const installed = new Map<number, { registration: Registration | null; ended: boolean }>();

  const execute = (kind: 'tool' | 'intent', tool: string, epoch: number): WebMcpTool['execute'] => {
    return async (input, options) => {
      if (!isLive(machine, epoch)) return { error: 'These tools were replaced; use the current ones.' };
      if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input)))
        return { error: 'the input must be a JSON object' };
      const call = {
        kind,
        tool,
        args: (input ?? {}) as Record<string, unknown>,
        interruptId: null,
        ...(options?.signal ? { signal: options.signal } : {}),
      };
      try {
        const outcome = await run(call);
        return 'result' in outcome ? outcome.result : { error: outcome.error };
      } catch (error) {
        return { error: errorText(error) };
      }
    };
  };

  /** The page's tools right now: declared raw tools it has a handler for, and every intent. */
  const plan = (declared: Declared[]): Planned[] => [
    ...declared
      .filter((each) => kit.tools.has(each.name))
      .map((each) => ({ ...each, kind: 'tool' as const, tool: each.name })),
    ...(kit.adapter.get()?.intents ?? []).map((intent) => ({
      name: intentToolName(intent.name),
      description: intent.description,
      inputSchema: intent.schema,
      annotations: { consequentialHint: Boolean(intent.approval) },
      kind: 'intent' as const,
      tool: intent.name,
    })),
  ];

  async function dispatch(event: LifecycleEvent<Planned>): Promise<void> {
    const step = transition(machine, event);
    machine = step.state;
    await Promise.all(step.effects.map(perform));
  }

  async function perform(effect: LifecycleEffect<Planned>): Promise<void> {
    if (effect.type === 'load') {
      let declared: Declared[] = [];
      try {
        declared = (await session.client.session()).assistant.browserTools;
      } catch {
        // No hub session: intents still register; raw tools need their declared descriptions.
      }
      const loaded = { type: 'loaded' as const, seq: effect.seq, tools: plan(declared), generation };
      await dispatch({ ...loaded, sessionGeneration: PAGE_SESSION });
    } else if (effect.type === 'register') {
      await register(effect.epoch, effect.tools);
    } else if (effect.type === 'end') {
      const own = installed.get(effect.epoch);
      installed.delete(effect.epoch);
      if (own) own.ended = true;
      own?.registration?.remove();
    }
  }

  async function register(epoch: number, planned: readonly Planned[]): Promise<void> {
    const own = { registration: null as Registration | null, ended: false };
    installed.set(epoch, own);
    const tools = planned.map(({ kind, tool, ...rest }) => ({
      ...rest,
      execute: execute(kind, tool, epoch),
    }));
    let event: LifecycleEvent<Planned>;
    try {
      const registration = await registerTools(
        platform!,
        tools,
        () => machine.disposed || machine.epoch !== epoch,
      );
      if (!registration) return;
      if (own.ended) registration.remove();
      else own.registration = registration;
      event = { type: 'registered', epoch, names: registration.names };
    } catch (error) {
      const reason = RegistrationFailed.isInstance(error) ? error.message : errorText(error);
      console.error(`[diosc] WebMCP registration failed: ${reason}`);
      event = { type: 'registration-failed', epoch, reason };
    }
    await dispatch(event);
  }

  const sync = () => {
    generation++;
    void dispatch({ type: 'sync', sessionGeneration: PAGE_SESSION, offline: false });
  };
  const pagehide = () => void dispatch({ type: 'revoke', reason: 'teardown' });
  const pageshow = (event: PageTransitionEvent) =>
    void dispatch({ type: 'pageshow', persisted: event.persisted, offline: false });
  kit.registryChanged.add(sync);
  addEventListener('pagehide', pagehide);
  addEventListener('pageshow', pageshow);
  sync();
  return () => {
    kit.registryChanged.delete(sync);
    removeEventListener('pagehide', pagehide);
    removeEventListener('pageshow', pageshow);
    void dispatch({ type: 'dispose' });
  };
}
