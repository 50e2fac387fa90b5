import { descriptorsFor, type ToolDescriptor } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import {
  initialLifecycle,
  isLive,
  type LifecycleEffect,
  type LifecycleEvent,
  type LifecycleState,
  transition,
} from '../src/index.js';

/**
 * The adapter's lifecycle as data: each case is where the state came from (a list of events from
 * the initial state), one event, and exactly the effects and state that must follow. No platform,
 * network, window or clock is involved — those are the shell's.
 */
type Event = LifecycleEvent<ToolDescriptor>;
type Effect = LifecycleEffect<ToolDescriptor>;

const TOOLS = descriptorsFor(['collections_list', 'items_list']);
const NAMES = TOOLS.map((tool) => tool.name);

const sync = (sessionGeneration = 7, offline = false): Event => ({
  type: 'sync',
  sessionGeneration,
  offline,
});
const loaded = (seq: number, generation = 1, sessionGeneration = 7): Event => ({
  type: 'loaded',
  seq,
  tools: TOOLS,
  generation,
  sessionGeneration,
});
const registered = (epoch: number): Event => ({ type: 'registered', epoch, names: NAMES });
const revoke = (reason: Extract<Event, { type: 'revoke' }>['reason']): Event => ({ type: 'revoke', reason });

/** sync(7) → descriptors for generation 1 → registration of epoch 1: the live state. */
const LIVE: Event[] = [sync(), loaded(1), registered(1)];

function run(
  events: readonly Event[],
  state = initialLifecycle(true),
): { state: LifecycleState; effects: Effect[] } {
  let effects: Effect[] = [];
  for (const event of events) ({ state, effects } = transition(state, event));
  return { state, effects };
}

const publish = (view: Record<string, unknown>) => ({
  type: 'publish',
  state: expect.objectContaining(view),
});

interface Case {
  name: string;
  given?: Event[];
  supported?: boolean;
  when: Event;
  effects: unknown[];
  state?: Partial<Record<keyof LifecycleState, unknown>>;
}

const CASES: Case[] = [
  {
    name: 'without WebMCP a sync does nothing',
    supported: false,
    when: sync(),
    effects: [],
    state: { view: { status: 'unsupported', tools: [] } },
  },
  {
    name: 'a sync asks for the descriptors',
    when: sync(),
    effects: [{ type: 'load', seq: 1 }],
    state: { loading: { seq: 1, sessionGeneration: 7 }, sessionGeneration: 7 },
  },
  {
    name: 'a sync while offline revokes as offline and waits for online',
    when: sync(7, true),
    effects: [publish({ status: 'offline', tools: [] })],
    state: { loading: null, resumeOn: 'online', sessionGeneration: 7 },
  },
  {
    name: 'descriptors register as a new epoch',
    given: [sync()],
    when: loaded(1),
    effects: [{ type: 'register', epoch: 1, generation: 1, tools: TOOLS }],
    state: { epoch: 1, loading: null, registering: { epoch: 1, generation: 1, sessionGeneration: 7 } },
  },
  {
    name: 'the registration landing makes it live and registered',
    given: [sync(), loaded(1)],
    when: registered(1),
    effects: [publish({ status: 'registered', tools: NAMES, generation: 1 })],
    state: { registering: null, live: { epoch: 1, generation: 1, sessionGeneration: 7, names: NAMES } },
  },
  {
    name: 'the same descriptors again keep the live registration',
    given: [...LIVE, sync()],
    when: loaded(2),
    effects: [],
    state: { epoch: 1, live: expect.objectContaining({ epoch: 1 }) },
  },
  {
    name: 'a new grant generation replaces the registration (old callbacks: generation_changed)',
    given: [...LIVE, sync()],
    when: loaded(2, 2),
    effects: [
      { type: 'end', epoch: 1, code: 'generation_changed' },
      { type: 'register', epoch: 2, generation: 2, tools: TOOLS },
    ],
    state: { epoch: 2, live: null },
  },
  {
    name: 'descriptors of another session generation are a replaced session',
    given: [sync()],
    when: loaded(1, 1, 8),
    effects: [publish({ status: 'expired-session', reason: 'The session was replaced; sign in again.' })],
    state: { sessionGeneration: null, epoch: 1 },
  },
  {
    name: 'an answer to an overtaken request is dropped',
    given: [sync(), sync()],
    when: loaded(1),
    effects: [],
    state: { loading: { seq: 2, sessionGeneration: 7 } },
  },
  {
    name: 'disabled by the server on load: disabled',
    given: [sync()],
    when: { type: 'load-failed', seq: 1, offline: false, code: 'not_enabled', reason: 'off' },
    effects: [publish({ status: 'disabled', tools: [] })],
  },
  {
    name: 'a 401 on load: expired-session, and the session is forgotten',
    given: [...LIVE, sync()],
    when: { type: 'load-failed', seq: 2, offline: false, code: 'session_expired', reason: 'gone' },
    effects: [
      { type: 'end', epoch: 1, code: 'session_expired' },
      publish({ status: 'expired-session', reason: 'gone', code: 'session_expired', tools: [] }),
    ],
    state: { sessionGeneration: null, live: null },
  },
  {
    name: 'any other load failure: failure with its code',
    given: [sync()],
    when: { type: 'load-failed', seq: 1, offline: false, code: 'internal', reason: 'boom' },
    effects: [publish({ status: 'failure', reason: 'boom', code: 'internal', tools: [] })],
  },
  {
    name: 'a load failure while the browser is offline is the offline revocation',
    given: [sync()],
    when: { type: 'load-failed', seq: 1, offline: true, code: 'internal', reason: 'Failed to fetch' },
    effects: [publish({ status: 'offline' })],
    state: { resumeOn: 'online' },
  },
  {
    name: 'a refused registration is a visible failure',
    given: [sync(), loaded(1)],
    when: {
      type: 'registration-failed',
      epoch: 1,
      reason: 'Registering items_list failed (NotAllowedError: no).',
    },
    effects: [publish({ status: 'failure', code: 'registration_failed', tools: [] })],
    state: { registering: null },
  },
  {
    name: 'a registration that lands after a revocation is ended at once, never shown',
    given: [sync(), loaded(1), revoke('sign-out')],
    when: registered(1),
    effects: [{ type: 'end', epoch: 1, code: 'not_enabled' }],
    state: { live: null, view: expect.objectContaining({ status: 'expired-session' }) },
  },
  {
    name: 'sign-out ends the live registration with session_expired',
    given: LIVE,
    when: revoke('sign-out'),
    effects: [
      { type: 'end', epoch: 1, code: 'session_expired' },
      publish({ status: 'expired-session', tools: [] }),
    ],
    state: { epoch: 2, live: null, sessionGeneration: null, resumeOn: null },
  },
  {
    name: 'a revocation during a sync cancels its request',
    given: [sync()],
    when: revoke('disabled'),
    effects: [
      { type: 'cancel-load' },
      publish({ status: 'disabled', reason: 'Browser tools were turned off.' }),
    ],
    state: { loading: null, seq: 2 },
  },
  {
    name: 'the server refusing a live call for the session revokes as a replaced session',
    given: LIVE,
    when: { type: 'refused', epoch: 1, code: 'unauthenticated', reason: 'Sign in first.' },
    effects: [
      { type: 'end', epoch: 1, code: 'session_expired' },
      publish({ status: 'expired-session', reason: 'Sign in first.', code: 'unauthenticated' }),
    ],
  },
  {
    name: 'the release gate closed on load: feature-disabled, the live registration ends with its code',
    given: [...LIVE, sync()],
    when: { type: 'load-failed', seq: 2, offline: false, code: 'feature_disabled', reason: 'gate' },
    effects: [
      { type: 'end', epoch: 1, code: 'feature_disabled' },
      publish({ status: 'feature-disabled', reason: 'gate', code: 'feature_disabled', tools: [] }),
    ],
    state: { live: null, sessionGeneration: 7 },
  },
  {
    name: 'a live call refused with feature_disabled: feature-disabled, the session kept',
    given: LIVE,
    when: { type: 'refused', epoch: 1, code: 'feature_disabled', reason: 'gate' },
    effects: [
      { type: 'end', epoch: 1, code: 'feature_disabled' },
      publish({ status: 'feature-disabled', code: 'feature_disabled' }),
    ],
    state: { live: null, sessionGeneration: 7 },
  },
  {
    name: 'a live call that found a disconnected source re-syncs the same session',
    given: LIVE,
    when: { type: 'resync', epoch: 1, offline: false },
    effects: [{ type: 'load', seq: 2 }],
    state: { loading: { seq: 2, sessionGeneration: 7 }, live: expect.objectContaining({ epoch: 1 }) },
  },
  {
    name: 'a resync asked by an old registration does nothing',
    given: [...LIVE, sync(), loaded(2, 2), registered(2)],
    when: { type: 'resync', epoch: 1, offline: false },
    effects: [],
  },
  {
    name: 'a resync after sign-out does nothing',
    given: [...LIVE, revoke('sign-out')],
    when: { type: 'resync', epoch: 1, offline: false },
    effects: [],
  },
  {
    name: 'a refusal reported by an old registration changes nothing',
    given: [...LIVE, sync(), loaded(2, 2), registered(2)],
    when: { type: 'refused', epoch: 1, code: 'not_enabled', reason: 'off' },
    effects: [],
    state: { live: expect.objectContaining({ epoch: 2 }) },
  },
  {
    name: 'online after an offline revocation re-syncs the same session',
    given: [...LIVE, revoke('offline')],
    when: { type: 'online', offline: false },
    effects: [{ type: 'load', seq: 3 }],
    state: { loading: { seq: 3, sessionGeneration: 7 }, resumeOn: null },
  },
  {
    name: 'online without an offline revocation does nothing',
    given: LIVE,
    when: { type: 'online', offline: false },
    effects: [],
  },
  {
    name: 'pagehide removes the tools but keeps the session for a back/forward-cache restore',
    given: LIVE,
    when: revoke('teardown'),
    effects: [
      { type: 'end', epoch: 1, code: 'not_enabled' },
      publish({ status: 'disabled', reason: 'The page is closing.' }),
    ],
    state: { sessionGeneration: 7, resumeOn: 'pageshow' },
  },
  {
    name: 'pageshow from the back/forward cache re-syncs',
    given: [...LIVE, revoke('teardown')],
    when: { type: 'pageshow', persisted: true, offline: false },
    effects: [{ type: 'load', seq: 3 }],
    state: { loading: { seq: 3, sessionGeneration: 7 } },
  },
  {
    name: 'pageshow of a fresh load (not persisted) does nothing',
    given: [...LIVE, revoke('teardown')],
    when: { type: 'pageshow', persisted: false, offline: false },
    effects: [],
  },
  {
    name: 'pageshow after a sign-out does not bring the tools back',
    given: [...LIVE, revoke('sign-out'), revoke('teardown')],
    when: { type: 'pageshow', persisted: true, offline: false },
    effects: [],
    state: { sessionGeneration: null },
  },
  {
    name: 'pageshow while offline waits for online instead',
    given: [...LIVE, revoke('teardown')],
    when: { type: 'pageshow', persisted: true, offline: true },
    effects: [publish({ status: 'offline' })],
    state: { resumeOn: 'online' },
  },
  {
    name: 'dispose tears down, stops watching, and nothing happens after',
    given: LIVE,
    when: { type: 'dispose' },
    effects: [
      { type: 'end', epoch: 1, code: 'not_enabled' },
      publish({ status: 'disabled' }),
      { type: 'unwatch' },
    ],
    state: { disposed: true, resumeOn: null },
  },
  {
    name: 'a sync after dispose does nothing',
    given: [...LIVE, { type: 'dispose' }],
    when: sync(),
    effects: [],
  },
  {
    name: 'without WebMCP a revocation does nothing',
    supported: false,
    when: revoke('disabled'),
    effects: [],
    state: { view: { status: 'unsupported', tools: [] } },
  },
  {
    name: 'a revocation while the registration is being installed ends it too',
    given: [sync(), loaded(1)],
    when: revoke('disabled'),
    effects: [{ type: 'end', epoch: 1, code: 'not_enabled' }, publish({ status: 'disabled', tools: [] })],
    state: { epoch: 2, registering: null },
  },
  {
    name: 'a revocation caused by a session refusal ends the callbacks with session_expired',
    given: LIVE,
    when: {
      type: 'revoke',
      reason: 'disabled',
      detail: { code: 'unauthenticated', reason: 'Sign in first.' },
    },
    effects: [
      { type: 'end', epoch: 1, code: 'session_expired' },
      publish({ status: 'disabled', reason: 'Sign in first.', code: 'unauthenticated', tools: [] }),
    ],
  },
  {
    name: 'the server refusing a live call with not_enabled: disabled, and the session forgotten',
    given: LIVE,
    when: { type: 'refused', epoch: 1, code: 'not_enabled', reason: 'off' },
    effects: [
      { type: 'end', epoch: 1, code: 'not_enabled' },
      publish({ status: 'disabled', reason: 'off', code: 'not_enabled', tools: [] }),
    ],
    state: { sessionGeneration: null, live: null },
  },
  {
    name: 'the same tools for a new session generation are registered again, for that session',
    given: [...LIVE, sync(8)],
    when: loaded(2, 1, 8),
    effects: [
      { type: 'end', epoch: 1, code: 'generation_changed' },
      { type: 'register', epoch: 2, generation: 1, tools: TOOLS },
    ],
    state: { registering: { epoch: 2, generation: 1, sessionGeneration: 8 } },
  },
  {
    name: 'a load failure ends the live registration: its callbacks answer not_enabled',
    given: [...LIVE, sync()],
    when: { type: 'load-failed', seq: 2, offline: false, code: 'internal', reason: 'boom' },
    effects: [
      { type: 'end', epoch: 1, code: 'not_enabled' },
      publish({ status: 'failure', reason: 'boom', code: 'internal', tools: [] }),
    ],
  },
  {
    name: 'a registration failure of an overtaken epoch changes nothing',
    given: [sync(), loaded(1), revoke('sign-out')],
    when: { type: 'registration-failed', epoch: 1, reason: 'Registering items_list failed.' },
    effects: [],
    state: { view: expect.objectContaining({ status: 'expired-session' }) },
  },
  {
    name: 'a registration reported after it failed is ended, never shown',
    given: [sync(), loaded(1), { type: 'registration-failed', epoch: 1, reason: 'Registering failed.' }],
    when: registered(1),
    effects: [{ type: 'end', epoch: 1, code: 'not_enabled' }],
    state: { live: null, view: expect.objectContaining({ status: 'failure' }) },
  },
  {
    name: 'a second dispose does nothing',
    given: [...LIVE, { type: 'dispose' }],
    when: { type: 'dispose' },
    effects: [],
  },
];

describe('the registration lifecycle (pure transitions)', () => {
  it.each(CASES)('$name', ({ given = [], supported = true, when, effects, state }) => {
    const before = run(given, initialLifecycle(supported)).state;
    const step = transition(before, when);
    expect(step.effects).toEqual(effects);
    if (state) expect(step.state).toMatchObject(state);
  });

  it('never changes the state it is given, and publishes frozen views', () => {
    const before = run(LIVE).state;
    const copy = structuredClone(before);
    const step = transition(before, revoke('sign-out'));
    expect(before).toEqual(copy);
    expect(step.state).not.toBe(before);
    expect(Object.isFrozen(step.state.view)).toBe(true);
    expect(Object.isFrozen(step.state.view.tools)).toBe(true);
  });

  it('a callback is live only for the registration it came from, while it is the live one', () => {
    const { state } = run(LIVE);
    expect(isLive(state, 1)).toBe(true);
    expect(isLive(state, 0)).toBe(false);
    expect(isLive(run([...LIVE, sync()]).state, 1)).toBe(true);
    expect(isLive(run([...LIVE, sync(), loaded(2, 2)]).state, 1)).toBe(false);
    expect(isLive(run([...LIVE, revoke('offline')]).state, 1)).toBe(false);
    expect(isLive(run([...LIVE, { type: 'dispose' }]).state, 1)).toBe(false);
  });
});
