// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { registeredHarness } from './support/harness.js';

const WRITE = {
  collection: 'notes',
  item: 'plan',
  requestId: 'req-replay-1',
  ifNoneMatch: '*',
  content: { body: 'hello' },
};

describe('a write repeated under the request ID of a committed change', () => {
  it('is answered with the stored result: no second review, acknowledge or execute', async () => {
    const { context, api, review, activity } = await registeredHarness();
    const first = context.invoke('item_write', WRITE);
    (await review.next()).resolve('accept');
    const committed = (await first) as { structuredContent: unknown };

    // The agent retries (it never saw the answer, say): the server already has this change.
    const again = (await context.invoke('item_write', WRITE)) as { structuredContent: unknown };
    expect(again.structuredContent).toEqual(committed.structuredContent);
    expect(review.pending).toHaveLength(0);
    expect(api.calls.map((call) => call.method)).toEqual([
      'descriptors',
      'prepare',
      'acknowledge',
      'execute',
      'prepare',
    ]);
    expect(activity.map((entry) => entry.outcome)).toEqual(['in-progress', 'ok', 'replayed']);
    expect(activity.at(-1)).toMatchObject({
      tool: 'item_write',
      collection: 'notes',
      requestId: 'req-replay-1',
    });
  });
});
