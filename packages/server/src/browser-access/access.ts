import { DioscError } from '@diosc/protocol';
import type { OwnerIdentity } from '../auth/owner-request.js';
import type { ConnectionRow } from '../connections/connections.js';
import type { GrantEntry } from '../connections/grant.js';
import type { DioscContext } from '../context.js';

/** This session's browser access: the server-side record every browser call is checked against. */
export interface BrowserAccess {
  connectionId: string;
  selection: GrantEntry[];
  generation: number;
  /** When a browser call last used this record (the coarse marker the call path writes). */
  lastUsedAt: number | null;
}

function toAccess(row: ConnectionRow): BrowserAccess {
  return {
    connectionId: row.id,
    selection: JSON.parse(row.grant_json) as GrantEntry[],
    generation: row.grant_generation,
    lastUsedAt: row.last_used_at,
  };
}

/**
 * Enablement, lookup and revocation of browser access. The record is an app connection (transport
 * `browser`, provenance `owner-browser-consent`) bound to one session; its selection is stored as
 * given and never grows. Its generation is unique across the account's browser records, so a
 * replaced selection can never be mistaken for the one a page registered its tools from.
 */
export function createBrowserAccess(ctx: DioscContext) {
  const { connections, sessions } = ctx;

  async function current(owner: OwnerIdentity): Promise<BrowserAccess | null> {
    const row = await connections.findBrowserForSession(owner.accountId, owner.session.id_hash);
    return row ? toAccess(row) : null;
  }

  return {
    current,

    async enable(owner: OwnerIdentity, selection: unknown): Promise<BrowserAccess> {
      const grant = await connections.checkGrant(owner.accountId, selection);
      const row = await connections.createBrowser(owner.accountId, owner.session.id_hash, grant);
      return toAccess(row);
    },

    async disable(owner: OwnerIdentity): Promise<void> {
      const access = await current(owner);
      if (access) await connections.revoke(owner.accountId, access.connectionId);
    },

    /**
     * Asked again once a read has run: if this session's access ended or changed meanwhile (sign-out,
     * a new sign-in, disable, a new selection), the result belongs to no one here and is not sent.
     */
    async assertUnchanged(owner: OwnerIdentity, was: BrowserAccess): Promise<void> {
      const now = await current(owner);
      if (now && now.connectionId === was.connectionId && now.generation === was.generation) return;
      if (!(await sessions.isLive(owner.session.id_hash))) {
        throw new DioscError(
          'session_expired',
          'The session ended while the call ran; its result is not sent.',
        );
      }
      if (!now) throw new DioscError('not_enabled', 'Browser tools were turned off while the call ran.');
      throw new DioscError('generation_changed', 'The selection changed while the call ran.', {
        details: { generation: now.generation },
      });
    },

    /** The live access of this session at exactly the generation the caller registered from. */
    async require(owner: OwnerIdentity, generation: unknown): Promise<BrowserAccess> {
      const access = await current(owner);
      if (!access) throw new DioscError('not_enabled');
      if (generation !== access.generation) {
        throw new DioscError('generation_changed', undefined, { details: { generation: access.generation } });
      }
      return access;
    },
  };
}

export type BrowserAccessService = ReturnType<typeof createBrowserAccess>;
