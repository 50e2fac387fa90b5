// @vitest-environment happy-dom
import { DioscError } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { TransportFailure } from '../src/index.js';
import { failure, registeredHarness } from './support/harness.js';

/** What the agent and the activity see when a call fails on the way, and what a failure leaves intact. */

const WRITE = {
  collection: 'notes',
  item: 'plan',
  requestId: 'req-failure-1',
  ifNoneMatch: '*',
  content: { body: 'hello' },
};

const lostConnection = () => new TransportFailure(new TypeError('Failed to fetch'));

describe('a read that fails on the way', () => {
  it('a lost connection is internal, with the transport message, and the tools stay registered', async () => {
    const { adapter, api, context, activity } = await registeredHarness();
    api.dispatch = () => Promise.reject(lostConnection());
    const error = await failure(context.invoke('items_list', { collection: 'notes' }));
    expect(error.code).toBe('internal');
    expect(error.message).toBe(`internal: ${lostConnection().message}`);
    expect(activity.at(-1)).toMatchObject({ tool: 'items_list', outcome: 'error', code: 'internal' });
    expect(adapter.state.status).toBe('registered');
    expect(context.tools.size).toBe(4);
  });

  it('an unexpected exception is internal and its text never reaches the agent', async () => {
    const { context, api } = await registeredHarness();
    api.dispatch = () => Promise.reject(new TypeError('secret at /srv/diosc/config.json'));
    const error = await failure(context.invoke('items_list', { collection: 'notes' }));
    expect(error.code).toBe('internal');
    expect(error.message).toBe('internal: The tool failed unexpectedly.');
  });

  it('a refusal about the call only (not_granted) is an error; the registration stays', async () => {
    const { adapter, api, context, activity } = await registeredHarness();
    api.refuseNext.set('dispatch', 'not_granted');
    expect((await failure(context.invoke('items_list', { collection: 'drive' }))).code).toBe('not_granted');
    expect(activity.at(-1)).toMatchObject({ outcome: 'error', code: 'not_granted' });
    expect(adapter.state).toMatchObject({ status: 'registered', tools: [...context.tools.keys()] });
    expect(context.tools.size).toBe(4);
    expect(api.count('descriptors')).toBe(1);
  });

  it('a server message that already starts with its code reaches the agent as it is', async () => {
    const { context, api } = await registeredHarness();
    api.dispatch = () => Promise.reject(new DioscError('not_granted', 'not_granted: Not in the selection.'));
    const error = await failure(context.invoke('items_list', { collection: 'drive' }));
    expect(error.message).toBe('not_granted: Not in the selection.');
  });
});

describe('input the adapter refuses itself', () => {
  it('a non-object is invalid_input with a plain message, reported as an error, nothing sent', async () => {
    const { context, api, activity } = await registeredHarness();
    const error = await failure(context.invoke('items_list', ['notes']));
    expect(error.message).toBe('invalid_input: The input must be a JSON object.');
    expect(activity.at(-1)).toMatchObject({ tool: 'items_list', outcome: 'error', code: 'invalid_input' });
    expect(api.count('dispatch')).toBe(0);
  });

  it('no input at all is an empty object', async () => {
    const { context, api } = await registeredHarness();
    await context.invoke('collections_list', undefined);
    expect(api.calls.at(-1)).toEqual({
      method: 'dispatch',
      body: { tool: 'collections_list', input: {}, generation: 1 },
    });
  });
});

describe('a write that fails on the way', () => {
  it('before anything was sent (prepare lost) it is internal, not uncertain, and nothing is asked', async () => {
    const { context, api, review, activity } = await registeredHarness();
    api.prepare = () => Promise.reject(lostConnection());
    const error = await failure(context.invoke('item_write', WRITE));
    expect(error.code).toBe('internal');
    expect(review.pending).toHaveLength(0);
    expect(activity.at(-1)).toMatchObject({ outcome: 'error', code: 'internal' });
  });

  it('after the execute was sent it is uncertain with the request ID, and never retried', async () => {
    const { context, api, review, activity } = await registeredHarness();
    let executes = 0;
    api.execute = () => {
      executes++;
      return Promise.reject(lostConnection());
    };
    const pending = context.invoke('item_write', WRITE);
    (await review.next()).resolve('accept');
    const error = await failure(pending);
    expect(error.code).toBe('uncertain');
    expect(error.details).toEqual({ requestId: 'req-failure-1' });
    expect(executes).toBe(1);
    expect(activity.at(-1)).toMatchObject({ outcome: 'uncertain', requestId: 'req-failure-1' });
  });
});
