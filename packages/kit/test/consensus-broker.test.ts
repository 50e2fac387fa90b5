import { describe, expect, it } from 'vitest';
import { type ApprovalRequest, createConsensusBroker } from '../src/consensus/consensus-broker.js';

const request = (id: string): ApprovalRequest => ({
  id,
  source: 'intent',
  tool: 'apply',
  severity: 'low',
  summary: `Request ${id}`,
  diff: [],
  args: { id },
  schema: { type: 'object' },
});

/** Whether a promise has settled yet, and how: without waiting on time. */
function track<T>(promise: Promise<T>) {
  const state: { settled: 'no' | 'resolved' | 'rejected'; value?: unknown } = { settled: 'no' };
  promise.then(
    (value) => Object.assign(state, { settled: 'resolved', value }),
    (error: unknown) => Object.assign(state, { settled: 'rejected', value: error }),
  );
  return state;
}

// Two turns of the microtask queue: enough for a settled promise's handlers to have run.
const flush = () => Promise.resolve().then(() => undefined);

describe('the consensus broker: one decision per request', () => {
  it('a decision settles only the request it names, with exactly that decision, and only once', async () => {
    const broker = createConsensusBroker();
    const a = track(broker.ask(request('a')));
    const b = track(broker.ask(request('b')));
    broker.decide('b', { outcome: 'edit', args: { id: 'b2' }, changed: ['id'] });
    await flush();
    expect(a.settled).toBe('no');
    expect(b).toEqual({
      settled: 'resolved',
      value: { outcome: 'edit', args: { id: 'b2' }, changed: ['id'] },
    });
    expect(broker.pending.get().map((each) => each.id)).toEqual(['a']);
    expect(broker.shown.get()?.id).toBe('a');
    // A second decision for a settled request, or one for an id never asked, changes nothing.
    broker.decide('b', { outcome: 'reject' });
    broker.decide('zzz', { outcome: 'approve' });
    await flush();
    expect(a.settled).toBe('no');
    expect(b.value).toEqual({ outcome: 'edit', args: { id: 'b2' }, changed: ['id'] });
    expect(broker.pending.get().map((each) => each.id)).toEqual(['a']);
    broker.decide('a', { outcome: 'reject', reason: 'no' });
    await flush();
    expect(a).toEqual({ settled: 'resolved', value: { outcome: 'reject', reason: 'no' } });
    expect(broker.pending.get()).toEqual([]);
    expect(broker.shown.get()).toBeNull();
  });

  it('shows the oldest request first and keeps it on screen while newer ones arrive', () => {
    const broker = createConsensusBroker();
    const shownSeen: (string | null)[] = [];
    broker.shown.subscribe((value) => shownSeen.push(value?.id ?? null));
    void broker.ask(request('a'));
    void broker.ask(request('b'));
    void broker.ask(request('c'));
    expect(broker.shown.get()?.id).toBe('a');
    // The dialog never flickers to a newer request while the first is on screen.
    expect(shownSeen).toEqual(['a']);
    expect(broker.pending.get().map((each) => each.id)).toEqual(['a', 'b', 'c']);
  });

  it('deciding the shown request shows the next one that is not hidden', async () => {
    const broker = createConsensusBroker();
    void broker.ask(request('a'));
    void broker.ask(request('b'));
    void broker.ask(request('c'));
    broker.dismiss(); // hides a, shows b
    expect(broker.shown.get()?.id).toBe('b');
    broker.dismiss(); // hides b, shows c
    expect(broker.shown.get()?.id).toBe('c');
    broker.decide('c', { outcome: 'approve' });
    await flush();
    // a and b were put aside by Escape: they wait for Review, not on screen.
    expect(broker.shown.get()).toBeNull();
    expect(broker.pending.get().map((each) => each.id)).toEqual(['a', 'b']);
    // A new request is shown, since nothing is.
    void broker.ask(request('d'));
    expect(broker.shown.get()?.id).toBe('d');
  });

  it('Escape with nothing shown does nothing; Review with no id shows the oldest pending one, hidden or not', () => {
    const broker = createConsensusBroker();
    broker.dismiss();
    expect(broker.shown.get()).toBeNull();
    broker.reopen();
    expect(broker.shown.get()).toBeNull();
    void broker.ask(request('a'));
    void broker.ask(request('b'));
    broker.dismiss();
    broker.dismiss();
    expect(broker.shown.get()).toBeNull();
    broker.reopen();
    expect(broker.shown.get()?.id).toBe('a');
    // Review of an unknown id leaves the screen as it is.
    broker.reopen('nope');
    expect(broker.shown.get()?.id).toBe('a');
    broker.reopen('b');
    expect(broker.shown.get()?.id).toBe('b');
  });

  it('a reopened request is no longer hidden: deciding another brings it back on screen', async () => {
    const broker = createConsensusBroker();
    void broker.ask(request('a'));
    void broker.ask(request('b'));
    broker.dismiss(); // hides a
    expect(broker.shown.get()?.id).toBe('b');
    broker.reopen('a');
    expect(broker.shown.get()?.id).toBe('a');
    broker.dismiss(); // hides a again
    broker.reopen('a'); // and un-hides it
    broker.decide('b', { outcome: 'approve' });
    await flush();
    expect(broker.shown.get()?.id).toBe('a');
  });

  it('withdrawing rejects with the signal’s reason, drops the request, and a late decision does nothing', async () => {
    const broker = createConsensusBroker();
    const controller = new AbortController();
    const reason = new Error('decided elsewhere');
    const a = track(broker.ask(request('a'), controller.signal));
    const b = track(broker.ask(request('b')));
    controller.abort(reason);
    await flush();
    expect(a).toEqual({ settled: 'rejected', value: reason });
    expect(broker.pending.get().map((each) => each.id)).toEqual(['b']);
    expect(broker.shown.get()?.id).toBe('b');
    broker.decide('a', { outcome: 'approve' });
    await flush();
    expect(a.value).toBe(reason);
    expect(b.settled).toBe('no');
  });

  it('a decided request ignores a later withdrawal: the decision stands', async () => {
    const broker = createConsensusBroker();
    const controller = new AbortController();
    const a = track(broker.ask(request('a'), controller.signal));
    void broker.ask(request('b'));
    broker.decide('a', { outcome: 'approve' });
    controller.abort(new Error('too late'));
    await flush();
    expect(a).toEqual({ settled: 'resolved', value: { outcome: 'approve' } });
    expect(broker.pending.get().map((each) => each.id)).toEqual(['b']);
  });

  it('an already aborted signal is refused at once: nothing is queued or shown', async () => {
    const broker = createConsensusBroker();
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    const a = track(broker.ask(request('a'), controller.signal));
    expect(broker.pending.get()).toEqual([]);
    expect(broker.shown.get()).toBeNull();
    await flush();
    expect(a).toEqual({ settled: 'rejected', value: reason });
  });

  it('a request put on screen by Review stays there while others arrive or leave', async () => {
    const broker = createConsensusBroker();
    void broker.ask(request('a'));
    void broker.ask(request('b'));
    broker.reopen('b');
    expect(broker.shown.get()?.id).toBe('b');
    void broker.ask(request('c'));
    expect(broker.shown.get()?.id).toBe('b');
    broker.decide('c', { outcome: 'approve' });
    await flush();
    expect(broker.shown.get()?.id).toBe('b');
    // Review of an id that is not pending leaves the screen as it is.
    broker.reopen('nope');
    expect(broker.shown.get()?.id).toBe('b');
  });

  it('withdrawing a hidden request forgets that it was hidden', async () => {
    const broker = createConsensusBroker();
    const controller = new AbortController();
    const a = track(broker.ask(request('a'), controller.signal));
    broker.dismiss();
    controller.abort(new Error('timed out'));
    await flush();
    expect(a.settled).toBe('rejected');
    expect(broker.pending.get()).toEqual([]);
    // The same id asked again (a reload re-asks) is shown, not still hidden.
    void broker.ask(request('a'));
    expect(broker.shown.get()?.id).toBe('a');
  });
});
