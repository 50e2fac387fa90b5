import type { AdapterState } from '@diosc/webmcp';
import { describe, expect, it } from 'vitest';
import { availabilityOf } from '../src/automation/availability.js';
import type { SessionState } from '../src/session/session-store.js';

const signedIn: SessionState = {
  status: 'signed-in',
  session: {
    account: { id: 'a', email: 'a@x', displayName: 'A' },
    csrfToken: 'c',
    sessionGeneration: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    browserTools: true,
  },
};
const adapter = (status: AdapterState['status']): AdapterState => ({ status, tools: [] });

describe('the Automation hub availability', () => {
  it('has a seventh state for the operator’s gate, distinct from an unsupported browser', () => {
    expect(availabilityOf(adapter('feature-disabled'), signedIn)).toEqual({
      status: 'feature-disabled',
      tone: 'neutral',
      action: 'open-apps',
      reason: null,
    });
    expect(availabilityOf(adapter('unsupported'), signedIn).status).toBe('unsupported');
    // The gate holds whatever this browser supports: another browser would not help.
    expect(availabilityOf(adapter('unsupported'), signedIn, true).status).toBe('feature-disabled');
    expect(availabilityOf(adapter('disabled'), signedIn, true).status).toBe('feature-disabled');
    expect(availabilityOf(adapter('disabled'), signedIn, false).status).toBe('disabled');
    const statuses = new Set(
      (
        [
          'unsupported',
          'disabled',
          'registered',
          'offline',
          'expired-session',
          'failure',
          'feature-disabled',
        ] as const
      ).map((status) => availabilityOf(adapter(status), signedIn).status),
    );
    expect(statuses.size).toBe(7);
  });
});
