import type { AdapterState, AdapterStatus } from '@diosc/webmcp';
import type { SessionState } from '../session/session-store.js';

export type AvailabilityAction = 'open-apps' | 'enable' | 'disable' | 'retry' | 'sign-in';

export interface Availability {
  status: AdapterStatus;
  tone: 'ok' | 'warn' | 'danger' | 'neutral';
  /** Catalogue keys under `automation.state.<status>`: title, body, action label. */
  action: AvailabilityAction;
  reason: string | null;
}

const TONE: Record<AdapterStatus, Availability['tone']> = {
  unsupported: 'neutral',
  disabled: 'neutral',
  registered: 'ok',
  offline: 'warn',
  'expired-session': 'warn',
  failure: 'danger',
};

const ACTION: Record<AdapterStatus, AvailabilityAction> = {
  unsupported: 'open-apps',
  disabled: 'enable',
  registered: 'disable',
  offline: 'retry',
  'expired-session': 'sign-in',
  failure: 'retry',
};

/**
 * What the Automation hub tells the owner about browser tools, from the adapter's state and the
 * session: each state has an explanation and exactly one action that moves it forward.
 */
export function availabilityOf(adapter: AdapterState, session: SessionState): Availability {
  let status = adapter.status;
  // The server ended the session: whatever the adapter last knew, the tools are gone.
  if (session.status === 'expired' && status !== 'unsupported') status = 'expired-session';
  return {
    status,
    tone: TONE[status],
    action: ACTION[status],
    reason: status === 'failure' ? (adapter.reason ?? null) : null,
  };
}
