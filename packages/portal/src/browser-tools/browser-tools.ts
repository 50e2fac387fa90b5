import { DioscError } from '@diosc/protocol';
import {
  type ActivityEntry,
  type AdapterState,
  type BrowserAccessView,
  createOwnerBrowserApi,
  createWebMcpAdapter,
  type GrantEntry,
} from '@diosc/webmcp';
import type { ReviewProvider } from '../review/review-provider.js';
import { createCrossTab } from '../session/cross-tab.js';
import type { SessionState, SessionStore } from '../session/session-store.js';
import { Observable } from '../state/observable.js';

const PAGE_ONLY = new Set(['declined', 'cancelled', 'refused', 'uncertain']);

function sameSelection(a: readonly GrantEntry[] | null, b: readonly GrantEntry[] | null): boolean {
  const key = (entries: readonly GrantEntry[] | null) =>
    JSON.stringify(
      [...(entries ?? [])]
        .map((entry) => ({ collection: entry.collection, functions: [...entry.functions].sort() }))
        .sort((x, y) => x.collection.localeCompare(y.collection)),
    );
  return key(a) === key(b);
}

/**
 * The portal's side of browser tools: the WebMCP adapter, the server's record of this session's
 * selection, and the wiring that keeps them in step with the session. It reacts to every session
 * change — sign-out, expiry, another tab signing in — by revoking the registration (and any pending
 * review) before anything else can run under the old session.
 */
export function createBrowserTools(options: { session: SessionStore; reviews: ReviewProvider }) {
  const { session, reviews } = options;
  const state = new Observable<AdapterState>({ status: 'disabled', tools: [] });
  const access = new Observable<BrowserAccessView | null>(null);
  /** Bumped on every invocation the adapter reports, so the activity log re-reads the server's. */
  const lastActivity = new Observable<ActivityEntry | null>(null);
  /**
   * Outcomes only this page knows: a declined, cancelled or refused call never reaches the server's
   * usage record. Kept in memory for this page's life only; never inputs or contents.
   */
  const pageActivity = new Observable<ActivityEntry[]>([]);
  /** Writes the owner accepted whose answer has not come yet: shown as "in progress", never as done. */
  const inProgress = new Observable<ActivityEntry[]>([]);
  /** The server's release gate is closed (`feature_disabled`): the operator has not turned the feature on. */
  const featureDisabled = new Observable<boolean>(false);

  const api = createOwnerBrowserApi({ csrfToken: session.csrfToken });
  const adapter = createWebMcpAdapter({
    api,
    reviewer: reviews.reviewer,
    onStateChange: (next) => {
      state.set(next);
      // The adapter's own request learned that the session ended: let the session query find out
      // (it shows the expired banner, or follows a newer session signed in elsewhere).
      if (
        next.status === 'expired-session' &&
        (next.code === 'session_expired' || next.code === 'unauthenticated')
      )
        void session.refresh('expired');
    },
    onActivity: (entry) => {
      if (entry.outcome === 'in-progress') {
        inProgress.set([entry, ...inProgress.value]);
        return;
      }
      // The call's answer came (whatever it is): it is no longer in progress.
      inProgress.set(
        inProgress.value.filter((row) => row.tool !== entry.tool || row.requestId !== entry.requestId),
      );
      if (PAGE_ONLY.has(entry.outcome)) pageActivity.set([entry, ...pageActivity.value].slice(0, 50));
      lastActivity.set(entry);
    },
  });
  state.set(adapter.state);

  /** The session this page's tools belong to: account and generation (generations are per account). */
  let knownSession: string | null = null;

  /** The server's record of this session's access; null when it could not be read. */
  async function loadAccess(): Promise<BrowserAccessView | null> {
    try {
      const view = await api.browserAccess();
      access.set(view);
      featureDisabled.set(false);
      return view;
    } catch (error) {
      access.set(null);
      featureDisabled.set(DioscError.isInstance(error) && error.code === 'feature_disabled');
      return null;
    }
  }

  /**
   * Reads the access record first and asks for descriptors only when tools are on: with tools off
   * the descriptors request is a refusal (403 `not_enabled`), and a normal state should not show
   * as a failed request. When the record could not be read, the adapter's own request tells why.
   */
  async function sync(): Promise<void> {
    const current = session.state.value;
    if (current.status !== 'signed-in') return;
    // The operator's gate is closed: every browser-access request would be refused; ask none.
    if (!current.session.browserTools) {
      access.set(null);
      featureDisabled.set(true);
      return;
    }
    const view = await loadAccess();
    if (view && !view.enabled) {
      if (adapter.state.status !== 'disabled' && adapter.state.status !== 'unsupported') adapter.disable();
      return;
    }
    if (session.state.value === current) await adapter.sync(current.session.sessionGeneration);
  }

  function onSession(next: SessionState): void {
    if (next.status === 'signed-in') {
      const known = `${next.session.account.id}:${next.session.sessionGeneration}`;
      if (knownSession !== null && knownSession !== known) {
        // Another sign-in (perhaps of another owner) replaced the session this registration belonged to.
        reviews.cancel('sign-out');
        adapter.revoke('session-replaced');
      }
      // Page-only activity belongs to the session it happened in.
      if (knownSession !== known) {
        pageActivity.set([]);
        inProgress.set([]);
      }
      knownSession = known;
      void sync();
      return;
    }
    if (next.status === 'loading') return;
    reviews.cancel('sign-out');
    adapter.revoke(next.status === 'expired' ? 'session-replaced' : 'sign-out');
    access.set(null);
    pageActivity.set([]);
    inProgress.set([]);
    knownSession = null;
  }
  session.state.subscribe(onSession);
  // Browser access belongs to the session, not the tab: when another tab changes the selection,
  // this tab's registration is stale — drop any review made under it and register afresh.
  const crossTab = createCrossTab('browser-access', () => {
    reviews.cancel('selection-changed');
    void sync();
  });
  window.addEventListener('pagehide', () => reviews.cancel('teardown'));

  return {
    state,
    access,
    lastActivity,
    pageActivity,
    inProgress,
    featureDisabled,
    supported: () => adapter.state.status !== 'unsupported',
    refresh: sync,

    /** Something the tools are offered for changed (a source was disconnected): register afresh, in every tab. */
    async resync(): Promise<void> {
      crossTab.announce();
      await sync();
    },

    /** Enables (or replaces) this session's selection, then registers exactly what it grants. */
    async enable(selection: GrantEntry[]): Promise<void> {
      if (!sameSelection(selection, access.value?.selection ?? null)) reviews.cancel('selection-changed');
      access.set(await api.enableAccess(selection));
      crossTab.announce();
      await sync();
    },

    async disable(): Promise<void> {
      reviews.cancel('selection-changed');
      adapter.disable();
      access.set(await api.disableAccess());
      crossTab.announce();
    },

    /** Called before the sign-out request, so nothing stays registered while it is in flight. */
    revokeForSignOut(): void {
      reviews.cancel('sign-out');
      adapter.revoke('sign-out');
    },
  };
}

export type BrowserTools = ReturnType<typeof createBrowserTools>;
