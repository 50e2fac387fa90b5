import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';

// Layout effects do not run in a server render; there the ref is never read anyway.
const useCommitEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * A ref that holds the value of the latest committed render. A handler registered once reads its
 * function through it, so the kit always calls the one that closes over the current state — the
 * stale closure of a handler captured at registration cannot happen — without re-registering.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useCommitEffect(() => {
    ref.current = value;
  });
  return ref;
}
