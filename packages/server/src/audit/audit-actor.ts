import type { AuditActorKind } from '@diosc/protocol';

export interface AuditActor {
  kind: AuditActorKind;
  /** The account id, the visitor id (`anon_…`) or the identified user's (`user:<sub>`): never a token. */
  id: string;
}

/** The visitor a session names: a host-signed identity (`user:<sub>`) or an anonymous visitor. */
export function visitorActor(visitorId: string): AuditActor {
  return { kind: visitorId.startsWith('user:') ? 'identified_user' : 'visitor', id: visitorId };
}

export function ownerActor(accountId: string): AuditActor {
  return { kind: 'owner', id: accountId };
}
