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
  'feature-disabled': 'neutral',
};

const ACTION: Record<AdapterStatus, AvailabilityAction> = {
  unsupported: 'open-apps',
  disabled: 'enable',
  registered: 'disable',
  offline: 'retry',
  'expired-session': 'sign-in',
  failure: 'retry',
  // Nothing on this page can turn it on; assistants still connect over HTTP MCP.
  'feature-disabled': 'open-apps',
};

/**
 * What the Automation hub tells the owner about browser tools, from the adapter's state, the
 * session and the server's release gate: each state has an explanation and exactly one action
 * that moves it forward.
 */
export function availabilityOf(
  adapter: AdapterState,
  session: SessionState,
  featureDisabled = false,
): Availability {
  let status = adapter.status;
  // The operator's gate holds whatever this browser supports: another browser would not help.
  if (featureDisabled && status !== 'registered') status = 'feature-disabled';
  // The server ended the session: whatever the adapter last knew, the tools are gone.
  if (session.status === 'expired' && status !== 'unsupported') status = 'expired-session';
  return {
    status,
    tone: TONE[status],
    action: ACTION[status],
    reason: status === 'failure' ? (adapter.reason ?? null) : null,
  };
}
