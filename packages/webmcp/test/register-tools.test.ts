// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import {
  createWebMcpAdapter,
  type LegacyModelContextLike,
  type ModelContextLike,
  RegistrationFailed,
  registerTools,
  type WebMcpTool,
} from '../src/index.js';
import { FakeOwnerApi } from './support/fake-owner-api.js';
import { failure, settle } from './support/harness.js';

/** Installing a tool set, and what a revocation part-way through it leaves behind. */

const tool = (name: string): WebMcpTool => ({ name, description: name, execute: async () => name });
const TOOLS = ['collections_list', 'items_list', 'item_read'].map(tool);

/** A platform (current API) that records each registration and can hold one until the test lets it land. */
class HeldContext implements ModelContextLike {
  readonly calls: { name: string; signal: AbortSignal | undefined }[] = [];
  readonly live = new Map<string, WebMcpTool>();
  private readonly held = new Map<string, { arrive: () => void; land: Promise<void> }>();
  /** What `registerTool` rejects with, by tool name. */
  readonly refuse = new Map<string, Error>();

  /** Holds the registration of `name`: `reached` once it was asked for, `release` lets it land. */
  hold(name: string): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let arrive!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const land = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(name, { arrive, land });
    return { reached, release };
  }

  async registerTool(webTool: WebMcpTool, options: { signal?: AbortSignal } = {}): Promise<undefined> {
    this.calls.push({ name: webTool.name, signal: options.signal });
    const held = this.held.get(webTool.name);
    if (held) {
      held.arrive();
      await held.land;
    }
    const refusal = this.refuse.get(webTool.name);
    if (refusal) throw refusal;
    this.live.set(webTool.name, webTool);
    options.signal?.addEventListener('abort', () => this.live.delete(webTool.name));
    return undefined;
  }
}

/** A legacy platform that records exactly what it was called with. */
class RecordingLegacy implements LegacyModelContextLike {
  readonly registered: unknown[][] = [];
  readonly unregistered: string[] = [];
  registerTool(...args: unknown[]): void {
    this.registered.push(args);
  }
  unregisterTool(name: string): void {
    this.unregistered.push(name);
  }
}

describe('registerTools', () => {
  it('current API: one registration-scoped signal, aborted once by remove() with an AbortError', async () => {
    const context = new HeldContext();
    const registration = await registerTools({ api: 'current', context }, TOOLS, () => false);
    expect(registration?.names).toEqual(['collections_list', 'items_list', 'item_read']);
    const signals = new Set(context.calls.map((call) => call.signal));
    expect(signals.size).toBe(1);
    const [signal] = [...signals];
    expect(signal?.aborted).toBe(false);
    registration!.remove();
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({
      name: 'AbortError',
      message: 'The Diosc browser tools were revoked.',
    });
    expect(context.live.size).toBe(0);
  });

  it('legacy API: registerTool gets the tool alone; remove() unregisters each own name once, however often called', async () => {
    const context = new RecordingLegacy();
    const registration = await registerTools({ api: 'legacy', context }, TOOLS, () => false);
    expect(context.registered.map((args) => args.length)).toEqual([1, 1, 1]);
    registration!.remove();
    registration!.remove();
    expect(context.unregistered).toEqual(['collections_list', 'items_list', 'item_read']);
  });

  it('cancelled after the first tool: installs no more, removes what it installed, answers null', async () => {
    const context = new RecordingLegacy();
    const result = await registerTools(
      { api: 'legacy', context },
      TOOLS,
      () => context.registered.length > 0,
    );
    expect(result).toBeNull();
    expect(context.registered).toHaveLength(1);
    expect(context.unregistered).toEqual(['collections_list']);
  });

  it('cancelled while the last tool was being installed: answers null and removes everything', async () => {
    const context = new HeldContext();
    const last = context.hold('item_read');
    let cancelled = false;
    const registering = registerTools({ api: 'current', context }, TOOLS, () => cancelled);
    await last.reached;
    cancelled = true;
    last.release();
    expect(await registering).toBeNull();
    expect(context.calls).toHaveLength(3);
    expect(context.live.size).toBe(0);
  });

  it('a refusal after it was cancelled answers null, not a failure nobody asked about', async () => {
    const context = new HeldContext();
    context.refuse.set('items_list', new DOMException('No.', 'NotAllowedError'));
    const second = context.hold('items_list');
    let cancelled = false;
    const registering = registerTools({ api: 'current', context }, TOOLS, () => cancelled);
    await second.reached;
    cancelled = true;
    second.release();
    expect(await registering).toBeNull();
    expect(context.live.size).toBe(0);
  });

  it('a refusal is a RegistrationFailed that keeps the platform error as its cause', async () => {
    const context = new HeldContext();
    const refusal = new DOMException('No.', 'NotAllowedError');
    context.refuse.set('items_list', refusal);
    const error = await registerTools({ api: 'current', context }, TOOLS, () => false).catch(
      (e: unknown) => e,
    );
    expect(RegistrationFailed.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'RegistrationFailed', toolName: 'items_list', cause: refusal });
    expect(context.live.size).toBe(0);
  });
});

describe('the adapter while its tools are being installed', () => {
  function adapterOn(context: HeldContext) {
    const api = new FakeOwnerApi();
    const adapter = createWebMcpAdapter({
      modelContext: { api: 'current', context },
      api,
      reviewer: async () => 'reject',
      window: null,
    });
    return { adapter, api };
  }

  it('a tool already installed but not yet live is refused with not_enabled, nothing sent', async () => {
    const context = new HeldContext();
    const { adapter, api } = adapterOn(context);
    const second = context.hold('items_list');
    const syncing = adapter.sync(api.sessionGeneration);
    await second.reached;
    const early = context.live.get('collections_list')!;
    const error = await failure(early.execute({}));
    expect(error.code).toBe('not_enabled');
    expect(api.count('dispatch')).toBe(0);
    second.release();
    expect((await syncing).status).toBe('registered');
    await expect(early.execute({})).resolves.toMatchObject({ structuredContent: expect.anything() });
  });

  it('a revocation part-way stops installing, removes what landed, and the sync settles with it', async () => {
    const context = new HeldContext();
    const { adapter, api } = adapterOn(context);
    const second = context.hold('items_list');
    const syncing = adapter.sync(api.sessionGeneration);
    await second.reached;
    adapter.revoke('sign-out');
    second.release();
    expect(await syncing).toMatchObject({ status: 'expired-session', tools: [] });
    await settle();
    expect(context.calls.map((call) => call.name)).toEqual(['collections_list', 'items_list']);
    expect(context.live.size).toBe(0);
  });
});
