import type {
  ConnectionView,
  FunctionName,
  OperationInputs,
  OperationOutputs,
  SessionStatus,
  SourceDisconnection,
  UsageView,
} from '@diosc/protocol';
import type { GrantEntry, SessionView } from '@diosc/webmcp';
import type { Http } from './http.js';

export type { ConnectionView, UsageView };

/**
 * The owner API as the portal's own pages call it (docs/api/owner.md). Browser access goes through
 * the WebMCP adapter's own client (`createOwnerBrowserApi`), not through these.
 */
export function createOwnerApi(http: Http) {
  return {
    /** The session, or why there is none: a 200 either way (signed out is not a failure). */
    sessionStatus: (signal?: AbortSignal) => http<SessionStatus>('GET', '/session/status', undefined, signal),
    signIn: (email: string, password: string) => http<SessionView>('POST', '/session', { email, password }),
    signOut: () => http<void>('DELETE', '/session'),

    operation<N extends FunctionName>(name: N, input: OperationInputs[N], signal?: AbortSignal) {
      return http<{ result: OperationOutputs[N]; replayed: boolean }>(
        'POST',
        `/operations/${name}`,
        input,
        signal,
      );
    },

    connections: () => http<{ connections: ConnectionView[] }>('GET', '/connections'),
    createConnection: (input: { displayName: string; grant: GrantEntry[]; expiresInDays?: number }) =>
      http<{ connection: ConnectionView; token: string; mcpUrl: string }>('POST', '/connections', input),
    changeGrant: (id: string, grant: GrantEntry[]) =>
      http<{ connection: ConnectionView }>('PUT', `/connections/${encodeURIComponent(id)}/grant`, { grant }),
    rotateConnection: (id: string, expiresInDays?: number) =>
      http<{ connection: ConnectionView; token: string }>(
        'POST',
        `/connections/${encodeURIComponent(id)}/rotate`,
        expiresInDays === undefined ? {} : { expiresInDays },
      ),
    revokeConnection: (id: string) =>
      http<{ connection: ConnectionView }>('DELETE', `/connections/${encodeURIComponent(id)}`),

    /** The owner disconnects an external collection's provider source (docs/api/owner.md). */
    disconnectSource: (id: string) =>
      http<SourceDisconnection>('DELETE', `/collections/${encodeURIComponent(id)}/source`),

    browserActivity: () => http<{ entries: UsageView[] }>('GET', '/activity?transport=browser'),
  };
}

export type OwnerApi = ReturnType<typeof createOwnerApi>;
