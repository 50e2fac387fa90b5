import { describe, expect, it } from 'vitest';
import { anySignal, untilAborted } from '../src/signals.js';

/**
 * The two signal helpers every call runs through: a call's signal combines the agent's with its
 * registration's, and a review waits until either aborts.
 */

const reason = (text: string) => new DOMException(text, 'AbortError');

describe('anySignal', () => {
  it('aborts with the reason of whichever input aborts', () => {
    const agent = new AbortController();
    const registration = new AbortController();
    const { signal } = anySignal([agent.signal, registration.signal]);
    expect(signal.aborted).toBe(false);
    const revoked = reason('revoked');
    registration.abort(revoked);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(revoked);
  });

  it('is aborted at once when an input already is', () => {
    const agent = new AbortController();
    const cancelled = reason('cancelled');
    agent.abort(cancelled);
    const { signal } = anySignal([new AbortController().signal, agent.signal]);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(cancelled);
  });

  it('after release an input aborting later no longer reaches it (the call is over)', () => {
    const registration = new AbortController();
    const combined = anySignal([new AbortController().signal, registration.signal]);
    combined.release();
    registration.abort(reason('revoked'));
    expect(combined.signal.aborted).toBe(false);
  });
});

describe('untilAborted', () => {
  it('settles like the promise while the signal stays quiet', async () => {
    await expect(untilAborted(Promise.resolve('accept'), new AbortController().signal)).resolves.toBe(
      'accept',
    );
    const refused = new Error('dialog failed');
    await expect(untilAborted(Promise.reject(refused), new AbortController().signal)).rejects.toBe(refused);
  });

  it('rejects with the reason as soon as the signal aborts, or at once when it already has', async () => {
    const never = new Promise<string>(() => {});
    const controller = new AbortController();
    const waiting = untilAborted(never, controller.signal);
    const moot = reason('moot');
    controller.abort(moot);
    await expect(waiting).rejects.toBe(moot);
    await expect(untilAborted(never, controller.signal)).rejects.toBe(moot);
  });

  it('leaves no listener on the signal once the promise has settled', async () => {
    const controller = new AbortController();
    const listeners = new Set<unknown>();
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
      listeners.add(listener);
      add(type, listener, options);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: EventListener) => {
      if (type === 'abort') listeners.delete(listener);
      remove(type, listener);
    }) as typeof signal.removeEventListener;
    await untilAborted(Promise.resolve('accept'), signal);
    await untilAborted(Promise.reject(new Error('x')), signal).catch(() => undefined);
    expect(listeners.size).toBe(0);
  });
});
