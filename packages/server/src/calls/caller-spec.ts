import type { CallChannel, GrantEntry } from '@diosc/protocol';
import type { CallerContext, CallSignal, Grant } from '../account/caller-context.js';
import { toGrant } from '../connections/grant.js';

/** The app connection a call is made through, as read on this very request. */
export interface ConnectionRef {
  id: string;
  /** Its exact grant as stored now: a change or revocation shows on the very next call. */
  grant: readonly GrantEntry[];
  /** The same grant in the core's form, when the transport has it already (see `StoredGrant`). */
  coreGrant?: Grant;
  /** When it was last marked used; the marker is written at most once a minute. */
  lastUsedAt: number | null;
}

/**
 * Who is calling, as a transport knows it after authenticating. The owner's own portal calls carry
 * the owner's full authority; every other channel acts through one app connection and its grant.
 */
export type CallerSpec =
  | { channel: 'owner'; accountId: string; signal?: CallSignal }
  | {
      channel: Exclude<CallChannel, 'owner'>;
      accountId: string;
      connection: ConnectionRef;
      /** Aborted when the caller gives up; see `runCall` for what that means after dispatch. */
      signal?: CallSignal;
      /**
       * The store's change counter as the transport read it at the start of this very call (never
       * an earlier call's), so the core's lookups need not read it again (`VersionedRead.given`).
       */
      dataVersion?: number | undefined;
    };

/**
 * The receipt namespace of each channel. Request IDs are unique per actor: an app connection's
 * (over `/mcp` or the hub), the account's browser tools (across re-enables), the owner's portal.
 */
function actorOf(spec: CallerSpec): string {
  switch (spec.channel) {
    case 'owner':
      return `owner:${spec.accountId}`;
    case 'browser':
      return `browser:${spec.accountId}`;
    case 'http_mcp':
    case 'hub':
      return `connection:${spec.connection.id}`;
  }
}

/** The core's caller context: authority is the stored grant, never anything the request says. */
export function callerContext(spec: CallerSpec): CallerContext {
  const context: CallerContext =
    spec.channel === 'owner'
      ? { accountId: spec.accountId, actor: actorOf(spec), via: 'owner', grant: { kind: 'all' } }
      : {
          accountId: spec.accountId,
          actor: actorOf(spec),
          via: spec.channel,
          connectionId: spec.connection.id,
          grant: spec.connection.coreGrant ?? toGrant(spec.connection.grant),
        };
  if (spec.signal) context.signal = spec.signal;
  if (spec.channel !== 'owner' && spec.dataVersion !== undefined) context.dataVersion = spec.dataVersion;
  return context;
}
