import { type DioscError, isMutatingFunction } from '@diosc/protocol';
import { createHttp } from '../api/http.js';
import { createOwnerApi, type OwnerApi } from '../api/owner-api.js';
import { type AssistantsApi, createAssistantsApi } from '../assistants/assistants-api.js';
import { type BrowserTools, createBrowserTools } from '../browser-tools/browser-tools.js';
import { t } from '../i18n/i18n.js';
import { ReviewProvider } from '../review/review-provider.js';
import { createRouter, type Router } from '../router/router.js';
import { createSessionStore, type SessionStore } from '../session/session-store.js';
import { codeName } from '../ui/outcome-label.js';
import { createToasts, type Toasts } from '../ui/toasts.js';

/** Everything a page needs, created once by `main.ts` and passed down as a property. */
export interface Portal {
  api: OwnerApi;
  assistants: AssistantsApi;
  session: SessionStore;
  router: Router;
  reviews: ReviewProvider;
  browserTools: BrowserTools;
  toasts: Toasts;
  signOut(): Promise<void>;
}

export function createPortal(): Portal {
  let api: OwnerApi | null = null;
  const session = createSessionStore(() => api!);
  const http = createHttp({
    csrfToken: session.csrfToken,
    onUnauthenticated: (error: DioscError) => session.unauthenticated(error),
  });
  api = createOwnerApi(http);
  const assistants = createAssistantsApi(http);
  const reviews = new ReviewProvider();
  const browserTools = createBrowserTools({ session, reviews });
  const router = createRouter();
  const toasts = createToasts();
  // The review toast says "being applied"; this one says it happened (or did not).
  browserTools.lastActivity.subscribe((entry) => {
    if (!entry || !isMutatingFunction(entry.tool)) return;
    if (entry.outcome === 'replayed')
      toasts.show('info', t('review.alreadyDone', { requestId: entry.requestId ?? '' }));
    else if (entry.outcome === 'ok')
      toasts.show('success', t('review.applied', { requestId: entry.requestId ?? '' }));
    else if (entry.outcome === 'error' || entry.outcome === 'uncertain')
      toasts.show('error', t('review.failed', { code: codeName(entry.code ?? entry.outcome) }));
  });

  return {
    api,
    assistants,
    session,
    router,
    reviews,
    browserTools,
    toasts,
    async signOut() {
      browserTools.revokeForSignOut();
      await session.signOut().catch(() => undefined);
    },
  };
}
