import { DioscError } from '@diosc/protocol';
import type { SessionView } from '@diosc/webmcp';
import type { OwnerApi } from '../api/owner-api.js';
import { Observable } from '../state/observable.js';
import { createCrossTab } from './cross-tab.js';

export type SignedOutNotice = 'signed-out' | 'expired' | 'elsewhere';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; notice: SignedOutNotice | null }
  | { status: 'signed-in'; session: SessionView }
  /** The server ended the session while the page was open; pages stay visible behind a banner. */
  | { status: 'expired'; account: SessionView['account'] };

/**
 * The read-only session query. It reacts to every way a session can change — this tab signing in
 * or out, a 401 from any request, another tab signing in or out (BroadcastChannel / `storage`), the
 * tab coming back into view — and publishes a new state whenever the session generation moves, so
 * holders of session-bound things (browser tools, open reviews) can drop them.
 */
export function createSessionStore(getApi: () => OwnerApi) {
  const state = new Observable<SessionState>({ status: 'loading' });
  let refreshing: Promise<void> | null = null;

  const current = () => (state.value.status === 'signed-in' ? state.value.session : null);

  function adopt(session: SessionView): void {
    const known = current();
    if (
      known &&
      known.sessionGeneration === session.sessionGeneration &&
      known.account.id === session.account.id &&
      known.csrfToken === session.csrfToken
    ) {
      return;
    }
    state.set({ status: 'signed-in', session });
  }

  /** `expired`: the server knew the session and says it ended (rather than: there was none). */
  function endedBy(expired: boolean, notice: SignedOutNotice): void {
    // An expired session stays expired (with its banner) until the owner signs in again, and a tab
    // already on the sign-in page keeps its notice: one announcement arrives twice (channel and
    // `storage`), and the second re-read used to replace "signed out elsewhere" with no notice.
    if (state.value.status === 'expired' || state.value.status === 'signed-out') return;
    const known = current();
    if (known && expired) state.set({ status: 'expired', account: known.account });
    else state.set({ status: 'signed-out', notice: known ? notice : expired ? 'expired' : null });
  }

  /**
   * Re-reads the session from the server; concurrent callers share one request. It asks the status
   * endpoint, which answers 200 when signed out too: a normal state never shows as a failed request.
   */
  function refresh(notice: SignedOutNotice = 'elsewhere'): Promise<void> {
    refreshing ??= getApi()
      .sessionStatus()
      .then(
        (status) => (status.signedIn ? adopt(status.session) : endedBy(status.ended, notice)),
        (error: unknown) => {
          if (DioscError.isInstance(error) && error.status === 401)
            endedBy(error.code === 'session_expired', notice);
          else if (state.value.status === 'loading') state.set({ status: 'signed-out', notice: null });
        },
      )
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  const crossTab = createCrossTab('session', () => void refresh('elsewhere'));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && state.value.status === 'signed-in') void refresh();
  });

  return {
    state,
    csrfToken: () => current()?.csrfToken ?? null,
    refresh,

    async signIn(email: string, password: string): Promise<void> {
      const session = await getApi().signIn(email, password);
      state.set({ status: 'signed-in', session });
      crossTab.announce();
    },

    async signOut(): Promise<void> {
      try {
        await getApi().signOut();
      } finally {
        // Even if the request failed, this tab forgets the session and its tools.
        state.set({ status: 'signed-out', notice: 'signed-out' });
        crossTab.announce();
      }
    },

    /** A request was refused with 401: the session is gone (or replaced); find out which. */
    unauthenticated(error: DioscError): void {
      if (state.value.status !== 'signed-in') return;
      endedBy(error.code === 'session_expired', 'expired');
      void refresh('expired');
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
