import {
  DioscError,
  descriptorsFor,
  type ErrorCode,
  type FunctionName,
  type PrepareAnswer,
  type ToolDescriptor,
} from '@diosc/protocol';
import type {
  BrowserAccessView,
  DescriptorsView,
  GrantEntry,
  OwnerBrowserApi,
  ReviewReceipt,
  SessionView,
  ToolCall,
} from '../../src/index.js';

type Method = 'descriptors' | 'dispatch' | 'prepare' | 'acknowledge' | 'execute';

/** A response the test releases by hand; `answerDespiteAbort` models a transport that ignores abort. */
interface Gate {
  release(): void;
  answerDespiteAbort: boolean;
  promise: Promise<void>;
  /** Resolves once the held call has arrived (the test can act while it is in flight). */
  reached: Promise<void>;
  /**
   * Resolves once the held call's answer — a result, a refusal or the abort's rejection — has been
   * handed back to the adapter: the last event that could make the adapter call again.
   */
  answered: Promise<void>;
}

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * A scripted double of the owner API's browser-access endpoints (the HTTP seam), following
 * docs/api/owner.md: real catalog descriptors, a selection, a grant generation, a session generation,
 * receipts. Each call is recorded; a gate holds a call until the test releases it, and a held call
 * rejects like `fetch` when its signal aborts.
 */
export class FakeOwnerApi implements OwnerBrowserApi {
  enabled = true;
  generation = 1;
  sessionGeneration = 7;
  selection: GrantEntry[] = [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }];
  /** Account whose data `items_list` answers with (to tell owners apart after a session change). */
  owner = 'owner-a';
  /** Code the next call of a method is refused with. */
  readonly refuseNext = new Map<Method, ErrorCode>();
  readonly calls: { method: Method; body: unknown }[] = [];
  /** The signal each call was given, in call order (to see that an abort reached the transport). */
  readonly signals: { method: Method; signal: AbortSignal | undefined }[] = [];
  /** Descriptors served in addition to the catalog's (e.g. a name the catalog does not have). */
  extraTools: ToolDescriptor[] = [];
  /** Collections whose provider source was disconnected: offered no more, every call answers `source_revoked`. */
  readonly disconnected = new Set<string>();
  /** The server's release gate: closed, every endpoint answers `feature_disabled`. */
  featureDisabled = false;
  /**
   * What a broken or hostile server does to the receipt `prepare` answers with (binding another
   * input, say); the adapter must refuse it. Unset, the receipt binds the call as asked.
   */
  receiptAnswered: (receipt: ReviewReceipt) => ReviewReceipt = (receipt) => receipt;
  /** Results of the writes executed so far, by request ID: `prepare` answers a repeat as replayed. */
  readonly committed = new Map<string, unknown>();
  private readonly gates = new Map<Method, Gate & { arrive(): void; finish(): void }>();
  private receiptCounter = 0;

  hold(method: Method, options: { answerDespiteAbort?: boolean } = {}): Gate {
    const released = signalled();
    const reached = signalled();
    const answered = signalled();
    const gate: Gate & { arrive(): void; finish(): void } = {
      release: released.resolve,
      promise: released.promise,
      answerDespiteAbort: options.answerDespiteAbort ?? false,
      reached: reached.promise,
      answered: answered.promise,
      arrive: reached.resolve,
      finish: answered.resolve,
    };
    this.gates.set(method, gate);
    return gate;
  }

  count(method: Method): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  private async answer<T>(method: Method, body: unknown, signal: AbortSignal | undefined, produce: () => T) {
    if (signal?.aborted) throw signal.reason;
    this.calls.push({ method, body: structuredClone(body) });
    this.signals.push({ method, signal });
    if (this.featureDisabled) throw new DioscError('feature_disabled');
    const gate = this.gates.get(method);
    if (!gate) {
      await Promise.resolve();
      return this.respond(method, produce);
    }
    this.gates.delete(method);
    gate.arrive();
    try {
      await new Promise<void>((resolve, reject) => {
        if (!gate.answerDespiteAbort) signal?.addEventListener('abort', () => reject(signal.reason));
        void gate.promise.then(resolve);
      });
      return this.respond(method, produce);
    } finally {
      // After the caller's continuation of this answer has run (a macrotask later).
      setTimeout(gate.finish, 0);
    }
  }

  private respond<T>(method: Method, produce: () => T): T {
    const refusal = this.refuseNext.get(method);
    if (refusal) {
      this.refuseNext.delete(method);
      throw new DioscError(refusal);
    }
    return produce();
  }

  private functions(): FunctionName[] {
    const offered = this.selection.filter((entry) => !this.disconnected.has(entry.collection));
    const granted = new Set<FunctionName>(offered.flatMap((entry) => entry.functions));
    return ['collections_list', ...granted];
  }

  private checkCall(call: ToolCall) {
    if (!this.enabled) throw new DioscError('not_enabled');
    if (call.generation !== this.generation) throw new DioscError('generation_changed');
    if (this.disconnected.has(String(call.input.collection))) throw new DioscError('source_revoked');
  }

  session(): Promise<SessionView> {
    return Promise.resolve({
      account: { id: 'acct', email: 'owner@localhost', displayName: 'Owner' },
      csrfToken: 'csrf',
      sessionGeneration: this.sessionGeneration,
      startedAt: '2026-01-01T00:00:00.000Z',
      browserTools: true,
    });
  }

  browserAccess(): Promise<BrowserAccessView> {
    return Promise.resolve(this.view());
  }

  enableAccess(selection: GrantEntry[]): Promise<BrowserAccessView> {
    this.enabled = true;
    this.selection = selection;
    this.generation++;
    return Promise.resolve(this.view());
  }

  disableAccess(): Promise<BrowserAccessView> {
    this.enabled = false;
    return Promise.resolve(this.view());
  }

  private view(): BrowserAccessView {
    return {
      enabled: this.enabled,
      selection: this.enabled ? this.selection : null,
      generation: this.enabled ? this.generation : null,
      sessionGeneration: this.sessionGeneration,
    };
  }

  descriptors(signal?: AbortSignal): Promise<DescriptorsView> {
    return this.answer('descriptors', null, signal, () => {
      if (!this.enabled) throw new DioscError('not_enabled');
      return {
        tools: [...descriptorsFor(this.functions()), ...this.extraTools],
        selection: this.selection,
        generation: this.generation,
        sessionGeneration: this.sessionGeneration,
      };
    });
  }

  dispatch(call: ToolCall, signal?: AbortSignal): Promise<{ result: unknown }> {
    return this.answer('dispatch', call, signal, () => {
      this.checkCall(call);
      if (call.tool === 'item_write' || call.tool === 'item_delete') throw new DioscError('review_required');
      const collection = String(call.input.collection ?? '');
      return {
        result: { collection, items: [{ id: `${this.owner}-item`, title: this.owner }], nextCursor: null },
      };
    });
  }

  prepare(call: ToolCall, signal?: AbortSignal): Promise<PrepareAnswer> {
    return this.answer('prepare', call, signal, (): PrepareAnswer => {
      this.checkCall(call);
      const stored = this.committed.get(String(call.input.requestId));
      if (stored !== undefined) return { replayed: true, result: stored };
      const receipt: ReviewReceipt = {
        id: `receipt-${++this.receiptCounter}`,
        tool: call.tool as ReviewReceipt['tool'],
        input: structuredClone(call.input),
        digest: `digest-${this.receiptCounter}`,
        expiresAt: '2026-11-29T12:02:00.000Z',
        effects: {
          collection: { id: String(call.input.collection), title: 'Notes', kind: 'storage' },
          item: String(call.input.item),
          action: 'create',
          before: null,
          after: { content: 'hello' },
        },
      };
      return { receipt: this.receiptAnswered(receipt) };
    });
  }

  acknowledge(receiptId: string, digest: string, signal?: AbortSignal): Promise<{ acknowledged: boolean }> {
    return this.answer('acknowledge', { receiptId, digest }, signal, () => ({ acknowledged: true }));
  }

  execute(
    call: ToolCall & { receiptId: string },
    signal?: AbortSignal,
  ): Promise<{ result: unknown; replayed: boolean }> {
    return this.answer('execute', call, signal, () => {
      this.checkCall(call);
      const item = { id: String(call.input.item), title: 'x', version: 'v1', updatedAt: '', sizeBytes: 5 };
      const result = { collection: String(call.input.collection), item, created: true };
      this.committed.set(String(call.input.requestId), result);
      return { result, replayed: false };
    });
  }
}
