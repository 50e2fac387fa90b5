/**
 * The native WebMCP test page: the real adapter, the real owner API client, and a review dialog that
 * accepts only a trusted click (the test clicks it with Playwright). Bundled by support/test-page.ts.
 */
import {
  type ActivityEntry,
  type AdapterState,
  createOwnerBrowserApi,
  createWebMcpAdapter,
  type GrantEntry,
  type ReviewRequest,
} from '@diosc/webmcp';

let csrfToken = '';
const api = createOwnerBrowserApi({ csrfToken: () => csrfToken });
const states: AdapterState[] = [];
const activity: ActivityEntry[] = [];
const reviews: string[] = [];

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`missing ${selector}`);
  return found;
}

/** Shows the receipt as text (never HTML) and settles on a trusted click, or on abort. */
function reviewer({ receipt, signal }: ReviewRequest): Promise<'accept' | 'reject'> {
  const dialog = element<HTMLDialogElement>('#review');
  element('#review-summary').textContent =
    `${receipt.tool} ${receipt.effects.action} ${receipt.effects.collection.id}/${receipt.effects.item}`;
  element('#review-input').textContent = JSON.stringify(receipt.input);
  reviews.push(receipt.id);
  dialog.show();
  return new Promise((resolve, reject) => {
    const done = () => {
      dialog.close();
      accept.removeEventListener('click', onAccept);
      refuse.removeEventListener('click', onReject);
    };
    const accept = element<HTMLButtonElement>('#accept');
    const refuse = element<HTMLButtonElement>('#reject');
    const onAccept = (event: MouseEvent) => {
      if (!event.isTrusted) return;
      done();
      resolve('accept');
    };
    const onReject = () => {
      done();
      resolve('reject');
    };
    accept.addEventListener('click', onAccept);
    refuse.addEventListener('click', onReject);
    signal.addEventListener('abort', () => {
      done();
      reject(signal.reason);
    });
  });
}

const adapter = createWebMcpAdapter({
  api,
  reviewer,
  onStateChange: (state) => {
    states.push(state);
    element('#state').textContent = state.status;
  },
  onActivity: (entry) => activity.push(entry),
});

async function ownerPost(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  return response.json();
}

const harness = {
  supported: () =>
    typeof (document as { modelContext?: { registerTool?: unknown } }).modelContext?.registerTool ===
    'function',
  async signIn(email: string, password: string): Promise<number> {
    const body = (await ownerPost('/api/owner/session', { email, password })) as {
      csrfToken: string;
      sessionGeneration: number;
    };
    csrfToken = body.csrfToken;
    return body.sessionGeneration;
  },
  /** The new access view, or the refusal's code (`feature_disabled` with the release gate closed). */
  enable: async (selection: GrantEntry[]) =>
    api.enableAccess(selection).catch((error: { code?: string }) => ({ error: error.code })),
  sync: async () => adapter.sync((await api.session()).sessionGeneration),
  async disable(): Promise<AdapterState> {
    adapter.disable();
    await api.disableAccess();
    return adapter.state;
  },
  /** Revoke first, then end the session: nothing stays registered while the request is in flight. */
  async signOut(): Promise<AdapterState> {
    adapter.revoke('sign-out');
    await fetch('/api/owner/session', {
      method: 'DELETE',
      headers: { 'x-csrf-token': csrfToken },
      credentials: 'same-origin',
    });
    csrfToken = '';
    return adapter.state;
  },
  operation: (name: string, input: unknown) => ownerPost(`/api/owner/operations/${name}`, input),
  /** The owner disconnects a collection's provider source (what the portal's confirmation does). */
  async disconnectSource(id: string): Promise<number> {
    const response = await fetch(`/api/owner/collections/${id}/source`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': csrfToken },
      credentials: 'same-origin',
    });
    return response.status;
  },
  state: () => adapter.state,
  states: () => states,
  activity: () => activity,
  reviews: () => reviews,
};

/** Every `pageshow` of this document: `persisted` is true when it came back from the back/forward cache. */
const pageshows: boolean[] = [];
window.addEventListener('pageshow', (event) => pageshows.push(event.persisted));

(window as unknown as { dioscTest: typeof harness & { pageshows(): boolean[] } }).dioscTest = {
  ...harness,
  pageshows: () => pageshows,
};
element('#state').textContent = adapter.state.status;
