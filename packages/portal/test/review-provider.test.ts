import type { ReviewReceipt } from '@diosc/webmcp';
import { describe, expect, it } from 'vitest';
import { ReviewProvider } from '../src/review/review-provider.js';

const receipt = (item: string): ReviewReceipt => ({
  id: `r-${item}`,
  tool: 'item_write',
  input: { collection: 'notes', item, requestId: `req-${item}-0001` },
  digest: 'd',
  expiresAt: new Date(0).toISOString(),
  effects: {
    collection: { id: 'notes', title: 'Notes', kind: 'storage' },
    item,
    action: 'create',
    before: null,
    after: { title: item, content: 'text' },
  },
});

describe('ReviewProvider (the adapter reviewer)', () => {
  it('shows a frozen private copy and settles only through the one decider', async () => {
    const provider = new ReviewProvider();
    const decider = provider.claimDecider()!;
    expect(provider.claimDecider()).toBeNull();
    const original = receipt('a');
    const decision = provider.reviewer({ receipt: original, signal: new AbortController().signal });
    const shown = provider.current.value!;
    (original.effects as { item: string }).item = 'tampered';
    expect(shown.receipt.effects.item).toBe('a');
    expect(Object.isFrozen(shown.receipt.effects)).toBe(true);
    decider.decide(shown.id + 1, 'accept');
    expect(provider.current.value).not.toBeNull();
    decider.decide(shown.id, 'accept');
    await expect(decision).resolves.toBe('accept');
    expect(provider.current.value).toBeNull();
  });

  it('cancels on input replacement, abort and sign-out', async () => {
    const provider = new ReviewProvider();
    const first = provider.reviewer({ receipt: receipt('a'), signal: new AbortController().signal });
    const aborter = new AbortController();
    const second = provider.reviewer({ receipt: receipt('b'), signal: aborter.signal });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    expect(provider.current.value?.receipt.effects.item).toBe('b');
    aborter.abort();
    await expect(second).rejects.toMatchObject({ code: 'cancelled' });
    const third = provider.reviewer({ receipt: receipt('c'), signal: new AbortController().signal });
    provider.cancel('sign-out');
    await expect(third).rejects.toMatchObject({ code: 'cancelled' });
    expect(provider.current.value).toBeNull();
  });
});
