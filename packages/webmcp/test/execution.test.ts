// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failure, registeredHarness } from './support/harness.js';

const WRITE = {
  collection: 'notes',
  item: 'plan',
  requestId: 'req-00000001',
  ifNoneMatch: '*',
  content: { body: 'hello' },
};

describe('reads', () => {
  it('dispatch to the owner API and return content + structuredContent', async () => {
    const { context, api, activity } = await registeredHarness();
    const output = await context.invoke('items_list', { collection: 'notes' });
    const result = {
      collection: 'notes',
      items: [{ id: 'owner-a-item', title: 'owner-a' }],
      nextCursor: null,
    };
    expect(output).toEqual({
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
    });
    expect(api.calls).toContainEqual({
      method: 'dispatch',
      body: { tool: 'items_list', input: { collection: 'notes' }, generation: 1 },
    });
    expect(activity).toEqual([
      {
        tool: 'items_list',
        collection: 'notes',
        outcome: 'ok',
        requestId: undefined,
        time: '2026-11-29T12:00:00.000Z',
      },
    ]);
  });

  it('turn a server refusal into an error with the stable code, never HTML', async () => {
    const { context, api } = await registeredHarness();
    api.refuseNext.set('dispatch', 'not_granted');
    const error = await failure(context.invoke('items_list', { collection: 'drive' }));
    expect(error.code).toBe('not_granted');
    expect(error.message).toMatch(/^not_granted: /);
    expect(error.message).not.toMatch(/[<>]/);
  });

  it('record only well-formed identifiers in activity entries', async () => {
    const { context, api, activity } = await registeredHarness();
    api.refuseNext.set('dispatch', 'invalid_input');
    await failure(context.invoke('items_list', { collection: '<img src=x onerror=alert(1)>' }));
    expect(activity.at(-1)).toMatchObject({ tool: 'items_list', outcome: 'error', code: 'invalid_input' });
    expect(activity.at(-1)!.collection).toBeUndefined();
  });

  it('refuse input that is not an object without calling the server', async () => {
    const { context, api } = await registeredHarness();
    const error = await failure(context.invoke('items_list', 'collection=notes'));
    expect(error.code).toBe('invalid_input');
    expect(api.count('dispatch')).toBe(0);
  });
});

describe('writes', () => {
  it('run prepare → review → acknowledge → execute with the input captured at call time', async () => {
    const { context, api, review } = await registeredHarness();
    const input = structuredClone(WRITE);
    const pending = context.invoke('item_write', input);
    const { request, resolve } = await review.next();
    // The caller edits its object and the reviewer tries to edit the receipt: neither changes what runs.
    input.content.body = 'tampered';
    expect(Object.isFrozen(request.receipt)).toBe(true);
    expect(Object.isFrozen(request.receipt.input)).toBe(true);
    expect(Object.isFrozen(request.receipt.effects.collection)).toBe(true);
    expect(() => {
      (request.receipt.input as Record<string, unknown>).item = 'other';
    }).toThrow(TypeError);
    expect(request.receipt.input).toEqual(WRITE);
    resolve('accept');
    const output = (await pending) as { structuredContent: unknown };
    expect(output.structuredContent).toMatchObject({
      collection: 'notes',
      created: true,
      item: { id: 'plan' },
    });
    expect(api.calls.map((c) => c.method)).toEqual(['descriptors', 'prepare', 'acknowledge', 'execute']);
    expect(api.calls[2]!.body).toEqual({ receiptId: 'receipt-1', digest: 'digest-1' });
    expect(api.calls[3]!.body).toEqual({
      tool: 'item_write',
      input: WRITE,
      generation: 1,
      receiptId: 'receipt-1',
    });
  });

  it('a rejected review is a clear refusal (declined) and nothing is acknowledged or executed', async () => {
    const { context, api, review, activity } = await registeredHarness();
    const pending = context.invoke('item_write', WRITE);
    (await review.next()).resolve('reject');
    const error = await failure(pending);
    expect(error.code).toBe('declined');
    expect(api.count('acknowledge') + api.count('execute')).toBe(0);
    expect(activity.at(-1)).toMatchObject({
      tool: 'item_write',
      outcome: 'declined',
      requestId: 'req-00000001',
    });
  });

  it('refuses a receipt that does not bind the requested input', async () => {
    const { context, api, review } = await registeredHarness();
    api.receiptAnswered = (receipt) => ({ ...receipt, input: { ...receipt.input, item: 'elsewhere' } });
    const error = await failure(context.invoke('item_write', WRITE));
    expect(error.code).toBe('receipt_mismatch');
    expect(error.message).toBe(
      'receipt_mismatch: The server prepared a different change than was requested.',
    );
    expect(review.pending).toHaveLength(0);
    expect(api.count('execute')).toBe(0);
  });

  it('refuses a receipt for another tool, even with the requested input', async () => {
    const { context, api, review, activity } = await registeredHarness();
    api.receiptAnswered = (receipt) => ({ ...receipt, tool: 'item_delete' });
    const error = await failure(context.invoke('item_write', WRITE));
    expect(error.code).toBe('receipt_mismatch');
    expect(review.pending).toHaveLength(0);
    expect(api.count('acknowledge') + api.count('execute')).toBe(0);
    expect(activity.at(-1)).toMatchObject({ outcome: 'refused', code: 'receipt_mismatch' });
  });
});
